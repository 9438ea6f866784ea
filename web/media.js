// An entry's sound and picture, on the study page and an entry's page: fetched with the
// token as `blob:` addresses (`mediaURL`), the sound played by a button or the p key, and
// read by the browser's speech synthesis where the entry has no audio file and the browser
// has a voice for its language.
import { mediaURL } from "./api.js";
import { h, iso, t } from "./dom.js";

/** Whether the browser has a voice for `language`. */
const hasVoice = language => "speechSynthesis" in window && speechSynthesis.getVoices().some(voice => voice.lang.toLowerCase().startsWith(language.toLowerCase()));

/** Whether `m` has a sound this browser can play. */
export const hasSound = m => Boolean(m.audio || (m.speak && hasVoice(m.language || "en")));

/** Plays the sound of `m`: the entry's audio file, else the word in the browser's voice.
 *  @param {import("./api.js").Media} m */
export async function playMedia(m) {
  if (m.audio) {
    const url = await mediaURL(m.audio);
    if (url) await new Audio(url).play().catch(() => {});
  } else if (m.speak && hasVoice(m.language || "en")) {
    speechSynthesis.cancel();
    speechSynthesis.speak(Object.assign(new SpeechSynthesisUtterance(m.speak), { lang: m.language || "en" }));
  }
}

/** The picture and a play button (its key shown) of `m`; the sound plays at once when `m.autoplay`.
 *  @param {import("./api.js").Media} m */
export function mediaBlock(m) {
  const picture = m.image ? h("img", { class: "entry-image", id: "entry-image", alt: "" }) : null;
  if (picture) mediaURL(m.image).then(url => { if (url) picture.src = url; else picture.remove(); });
  const sound = hasSound(m);
  if (sound && m.autoplay) playMedia(m);
  return h("div", { class: "media" }, picture,
    sound ? h("button", { id: "play", onclick: () => playMedia(m) }, "▶ ", t("study.play"), " ", h("kbd", { class: "key" }, iso("p"))) : null);
}
