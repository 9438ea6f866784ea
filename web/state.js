// What the pages share between routes: the open study screen, the chosen letter and its
// strokes, the reader's text. Also on `globalThis.state` so a console (and the browser tests)
// can read what the page is showing without scraping it.

/** @type {{screen: import("./api.js").Screen | null, busy: boolean, letters: import("./api.js").Letters | null,
 *  letter: import("./api.js").Letter | null, strokes: number[][][], scored: boolean, started: Date | null, mode: string,
 *  readerText: string, readerTokens: import("./api.js").ReaderToken[], rankFilter: string, deckFilter: string, search: string}} */
export const state = {
  screen: null, busy: false, letters: null, letter: null, strokes: [], scored: false, started: null, mode: "trace",
  readerText: "", readerTokens: [], rankFilter: "", deckFilter: "", search: "",
};
globalThis.state = state;
