"""Browser tests of `rote serve` in a real headless Chromium (Debian's chromium and
chromium-driver, Selenium from PyPI in a throwaway virtualenv; `make browser-test`).

Each test starts `rote serve` on a fresh `rote init` library, drives the pages with clicks,
keys and pointer events as a learner would, and then checks the library's files and commits.
Screenshots of every page at 1280 px and at phone widths (390 and 360 px, by Chrome's mobile
emulation), in English and Arabic, go to .build/browser-screenshots/ to be looked at.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from datetime import datetime, timezone
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

CHECKOUT = Path(__file__).resolve().parents[2]
ROTE = Path(os.environ.get("ROTE", CHECKOUT / ".build/debug/rote")).resolve()
SHOTS = Path(os.environ.get("ROTE_SCREENSHOTS", CHECKOUT / ".build/browser-screenshots"))
USER = "amal"


def git(root, *args):
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout.strip()


def passage_text(yaml):
    """A passage file's text: on its line, or folded (`>-`) over the indented lines below."""
    match = re.search(r"^text: (.*)$", yaml, re.M)
    if match.group(1).strip() not in (">", ">-"):
        return match.group(1).strip().strip('"')
    lines = []
    for line in yaml[match.end():].splitlines()[1:]:
        if not line.startswith("  "):
            break
        lines.append(line.strip())
    return " ".join(lines)


class Served:
    """A fresh library and `rote serve` on it; the first line of output is the address."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="serve-browser-"))
        self.root = self.folder / "library"
        subprocess.run([str(ROTE), "init", str(self.root), "--user", USER], check=True, capture_output=True)
        self.process = None

    def start(self):
        self.process = subprocess.Popen([str(ROTE), "-C", str(self.root), "serve"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.address = self.process.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/#token=[0-9a-f]{64}", self.address), self.address
        self.base = self.address.split("/#")[0]
        self.token = self.address.split("#token=")[1]
        return self

    def stop(self):
        """Ctrl-C, as a learner stops it."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(2)
            self.process.wait(timeout=30)
        if self.process:
            self.process.stdout.close()
            self.process.stderr.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def settle(self, timeout=10):
        """Waits until the server's commits, made behind its answers, are in: its journals in
        .git/rote/pending-commits/ are removed as each commit lands (docs/web.md)."""
        pending = Path(self.root) / ".git" / "rote" / "pending-commits"
        end = time.monotonic() + timeout
        while pending.is_dir() and any(p.suffix == ".commit" and not p.name.startswith(".") for p in pending.iterdir()):
            if time.monotonic() > end:
                raise AssertionError(f"commits still pending after {timeout} s: {sorted(p.name for p in pending.iterdir())}")
            time.sleep(0.02)

    def commits(self):
        self.settle()
        return int(git(self.root, "rev-list", "--count", "HEAD"))

    def last_subject(self):
        self.settle()
        return git(self.root, "log", "-1", "--format=%s")

    def last_files(self):
        self.settle()
        return git(self.root, "show", "--name-only", "--format=", "HEAD").splitlines()

    def uncommitted(self):
        self.settle()
        return git(self.root, "status", "--porcelain")


def browser(width=1280, height=900, language="en-GB"):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}", f"--lang={language}"]:
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    service = webdriver.ChromeService(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_window_size(width, height)
    return driver


class WebTests(unittest.TestCase):
    def setUp(self):
        self.served = Served().start()
        self.driver = browser()
        self.wait = WebDriverWait(self.driver, 15, ignored_exceptions=[StaleElementReferenceException])
        self.driver.get(self.served.address)
        self.wait.until(EC.presence_of_element_located((By.ID, "today-due")))

    def tearDown(self):
        self.driver.quit()
        self.served.stop()

    def find(self, css):
        return self.wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))

    def click(self, css):
        # A page may draw itself again (a route after a reload) between finding and clicking.
        for _ in range(5):
            try:
                return self.wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, css))).click()
            except StaleElementReferenceException:
                time.sleep(0.1)
        self.fail(f"{css} kept being redrawn")

    def screen(self):
        return self.driver.execute_script("return state.screen")

    def wait_for_screen_change(self, version):
        self.wait.until(lambda d: (d.execute_script("return state.screen && !state.busy ? state.screen.version : -1") or -1) > version)

    def shoot(self, name):
        """The whole page, not just the first screenful."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        size = self.driver.get_window_size()
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.driver.set_window_size(size["width"], max(size["height"], self.driver.execute_script("return document.documentElement.scrollHeight")))
        self.driver.save_screenshot(str(SHOTS / f"{name}.png"))
        self.driver.set_window_size(size["width"], size["height"])

    # MARK: Study

    def finished(self):
        return self.screen()["kind"] == "summary"

    def count_replies(self):
        """Counts the page's requests to /api/session/reply from now on (window.replies)."""
        self.driver.execute_script("""
            if (window.replies !== undefined) return;
            window.replies = 0;
            const fetch = window.fetch;
            window.fetch = (url, ...rest) => { if (String(url).includes("/api/session/reply")) window.replies += 1; return fetch(url, ...rest); };
        """)

    def answer_by_clicking(self):
        """Answers what is on screen with the mouse: the first choice, Continue, Accept."""
        screen = self.screen()
        kind = screen["kind"]
        version = screen["version"]
        if kind in ("card", "letter", "leech"):
            self.click("#go")
        elif kind == "question":
            question = screen["question"]
            if question["typed"]:
                self.find("#answer").send_keys("run" + Keys.ENTER)
            elif question["kind"] == "order":
                self.click("#submit")
            else:
                self.click("[data-choice='1']")
        elif kind == "feedback":
            self.click("#accept" if screen["feedback"].get("proposed") else "#go")
        elif kind == "grade_choice":
            self.click("#accept" if screen["grade_choice"].get("proposed") else "[data-grade='good']")
        elif kind == "passage":
            if screen["passage"]["step"] in ("read", "read_again"):
                self.click("#go")
            else:
                self.find("#answer").send_keys("in the beginning")
                self.click("#submit")
        elif kind == "reflection":
            self.click("#skip")
        elif kind == "consent":
            self.click("#yes")
        else:
            self.fail(f"unexpected screen {kind}")
        self.wait_for_screen_change(version)

    def answer_by_keys(self):
        """Answers with the keys `rote study` takes: space, a digit, Enter."""
        screen = self.screen()
        kind = screen["kind"]
        version = screen["version"]
        key = {"card": " ", "question": "2", "grade_choice": "3", "letter": " "}.get(kind)
        if kind == "feedback":
            key = "3" if screen["feedback"].get("proposed") else " "
        self.assertIsNotNone(key, f"unexpected screen {kind}")
        ActionChains(self.driver).send_keys(key).perform()
        self.wait_for_screen_change(version)

    def visible_card_text(self):
        """What the card shows a learner, its choices left out."""
        return self.driver.execute_script("""
            const card = document.getElementById("card").cloneNode(true);
            card.querySelectorAll(".choices").forEach(choices => choices.remove());
            return card.textContent;
        """)

    def test_study_three_cards_by_clicking_and_typing(self):
        before = self.served.commits()
        self.click(".deck[data-deck='english-a1'] button")
        self.find("#card")
        self.count_replies()
        self.shoot("study-1280")
        translations = []
        for card, answer in [(1, self.answer_by_clicking), (2, self.answer_by_keys), (3, self.answer_by_clicking)]:
            while self.screen()["number"] == card and not self.finished():
                screen = self.screen()
                if screen["kind"] == "card":
                    translations.append(screen["card"]["translation"])
                if screen["kind"] == "question" and translations:
                    # No question shows its own answer, but among its choices.
                    self.assertNotIn(translations[-1], self.visible_card_text())
                replies = self.driver.execute_script("return window.replies")
                answer()
                # One request per action.
                self.assertEqual(self.driver.execute_script("return window.replies"), replies + 1)
        self.assertEqual(self.screen()["number"], 4)
        # A card answered wrong comes back later and is not done yet.
        answered = self.screen()["answered"]
        self.assertLessEqual(answered, 3)
        # u brings the third card back; it is answered again before stopping.
        version = self.screen()["version"]
        ActionChains(self.driver).send_keys("u").perform()
        self.wait_for_screen_change(version)
        self.assertEqual(self.screen()["number"], 3)
        self.assertLessEqual(self.screen()["answered"], answered)
        self.assertIn("undone", [notice["kind"] for notice in self.screen()["notices"]])
        while self.screen()["number"] == 3:
            self.answer_by_clicking()
        self.click("#quit")
        summary = self.find("#summary").text
        self.assertIn("Session saved: 3 reviews", summary)
        self.assertEqual(self.served.commits(), before + 1)
        self.assertTrue(self.served.last_subject().startswith("Study"), self.served.last_subject())
        progress = [f for f in self.served.last_files() if f.startswith(f"profiles/{USER}/progress/english-a1/")]
        self.assertEqual(len(progress), 3, self.served.last_files())
        self.assertTrue(any(f.startswith(f"profiles/{USER}/sessions/") for f in self.served.last_files()))
        self.assertEqual(self.served.uncommitted(), "")

    def test_undo_this_session_from_the_summary(self):
        before = self.served.commits()
        self.click(".deck[data-deck='english-a1'] button")
        self.find("#card")
        while self.screen()["number"] <= 2 and not self.finished():
            self.answer_by_clicking()
        self.click("#quit")
        self.assertIn("Session saved:", self.find("#summary").text)
        self.assertEqual(self.served.commits(), before + 1)
        progress = [f for f in self.served.last_files() if f.startswith(f"profiles/{USER}/progress/english-a1/")]
        self.assertTrue(progress, self.served.last_files())
        # One more commit takes the session back; its reviews stay in the files, marked undone.
        self.click("#undo-session")
        self.assertRegex(self.find("#session-undone").text, r"Session undone: \d+ reviews? taken back")
        self.assertEqual(self.served.commits(), before + 2)
        self.assertTrue(self.served.last_subject().startswith("Undo: Study"), self.served.last_subject())
        self.assertEqual(self.served.uncommitted(), "")
        for path in progress:
            with open(os.path.join(self.served.root, path)) as file:
                text = file.read()
            self.assertIn("undone: ", text)
            self.assertNotIn("state:", text, "the entry is new again")

    def test_practice_and_review_ahead_from_today(self):
        """Today's practice starts a session whose answers are kept as practice and move no
        entry's state; review ahead starts one of real reviews (docs/scheduling.md)."""
        progress = self.served.root / "profiles" / USER / "progress" / "english-a1"
        def states():
            return {f.name: next(l for l in f.read_text().splitlines() if l.startswith("state:")) for f in sorted(progress.glob("*.yaml"))}
        # Practice is of studied entries: study three first.
        self.click(".deck[data-deck='english-a1'] button")
        self.find("#card")
        while self.screen()["number"] <= 3 and not self.finished():
            self.answer_by_clicking()
        self.click("#quit")
        self.find("#summary")
        self.served.settle()
        before = states()
        self.assertEqual(len(before), 3, before)
        self.driver.get(self.served.address)
        self.find("#custom-study")
        self.shoot("today-custom-1280")
        self.driver.find_element(By.CSS_SELECTOR, "#custom-deck option[value='english-a1']").click()
        self.click("#practice-start")
        self.find("#card")
        self.assertTrue(self.screen().get("practice"), self.screen())
        self.assertTrue(self.find("#practice-note").is_displayed())
        self.assertEqual(self.screen()["planned"], 3, "the three studied words, nothing new")
        self.shoot("study-practice-1280")
        while not self.finished() and self.screen()["answered"] < 3:
            self.answer_by_clicking()
        if not self.finished():
            self.click("#quit")
        self.find("#summary")
        self.served.settle()
        self.assertTrue(self.served.last_subject().startswith("Study"), self.served.last_subject())
        self.assertEqual(states(), before, "practice moved no state")
        practised = [f.name for f in progress.glob("*.yaml") if "practice: true}" in f.read_text()]
        self.assertTrue(practised, "the answers are kept as practice")
        # Review ahead: a bad number is refused in the page; a good one starts real reviews of
        # the words due within 30 days.
        self.driver.execute_script("location.hash = '#/today'")
        days = self.find("#ahead-days")
        days.clear()
        days.send_keys("0")
        self.click("#ahead-start")
        self.assertFalse(self.driver.execute_script("return document.getElementById('ahead-days').validity.valid"))
        self.assertEqual(self.screen().get("practice"), True, "no session was asked for")
        self.driver.execute_script("const d = document.getElementById('ahead-days'); d.value = '30'; d.setCustomValidity('');")
        self.click("#ahead-start")
        # The practice session's summary gives way to the new session's first screen. A custom
        # session is planned from every file (docs/scheduling.md), slower than the index's
        # plan on a loaded machine: more patience here.
        try:
            WebDriverWait(self.driver, 60).until(lambda d: not self.screen().get("practice"))
        except Exception:
            raise AssertionError("review ahead did not start: " + self.find("#main").text)
        self.assertFalse(self.screen().get("nothing_to_study"), "two words are due within 30 days")
        self.assertIn(self.screen()["kind"], ("card", "question"))
        self.shoot("study-review-ahead-1280")
        while not self.finished() and self.screen()["answered"] < 1:
            self.answer_by_clicking()
        if not self.finished():
            self.click("#quit")
        self.find("#summary")
        self.served.settle()
        self.assertNotEqual(states(), before, "review ahead is real: a state moved")

    def test_climb_a_passage_ladder_and_type_a_recall(self):
        # The first new passage stands at the recite rung, as a learner who climbed the
        # lower rungs yesterday left it; the next one starts at the bottom.
        plan = subprocess.run([str(ROTE), "-C", str(self.served.root), "study", "kjv", "--plan", "--list"], check=True, capture_output=True, text=True).stdout
        first, second = re.findall(r"new  (kjv/\S+)", plan)[:2]
        (self.served.root / f"profiles/{USER}/progress/kjv").mkdir(parents=True, exist_ok=True)
        (self.served.root / f"profiles/{USER}/progress/{first}.yaml").write_text(
            f"entry: {first}\nstatus: active\nladder: {{level: recite, covered: [], attempts: 0, at: 2026-01-01T00:00:00Z}}\n")
        self.served.settle()
        git(self.served.root, "add", "-A")
        git(self.served.root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "ladder at recite")
        text = passage_text((self.served.root / f"corpus/{first}.yaml").read_text())
        before = self.served.commits()
        self.driver.get(self.served.base + "/#/today")
        self.click(".deck[data-deck='kjv'] button")
        # Seed 004 §6: before the first passage the learner is asked, once, whether Rote may
        # keep their passage practice; y on the keyboard says yes.
        self.wait.until(lambda d: d.execute_script("return state.screen && !state.busy ? state.screen.kind : ''") == "consent")
        version = self.screen()["version"]
        ActionChains(self.driver).send_keys("y").perform()
        self.wait_for_screen_change(version)
        self.find("#answer")
        self.assertEqual(self.screen()["passage"]["step"], "recite")
        box = self.find("#answer")
        words = text.split(" ")
        box.send_keys(" ".join(words[:3]) + " ")
        self.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#marks [data-mark='correct']")) >= 3)
        self.shoot("recall-1280")
        box.send_keys(" ".join(words[3:]))
        version = self.screen()["version"]
        box.send_keys(Keys.ENTER)
        self.wait_for_screen_change(version)
        self.assertEqual(self.screen()["feedback"]["similarity"], 1)
        self.assertIn("100%", self.find("#feedback").text)
        self.assertIn("graduated", [notice["kind"] for notice in self.screen()["notices"]])
        while self.screen()["number"] == 1:
            self.answer_by_clicking()
        # The second passage: read once (space), which climbs to the second reading.
        self.assertEqual(self.screen()["passage"]["step"], "read")
        # The button says what to do; the terminal's words for it stay off the page.
        card = self.find("#card").text
        for terminal_prompt in ("space or Enter", "(y/n)", "Enter to accept", "answer (number", "recite (end a line"):
            self.assertNotIn(terminal_prompt, card)
        version = self.screen()["version"]
        ActionChains(self.driver).send_keys(" ").perform()
        self.wait_for_screen_change(version)
        self.click("#quit")
        self.find("#summary")
        self.assertEqual(self.served.commits(), before + 1)
        first_file = (self.served.root / f"profiles/{USER}/progress/{first}.yaml").read_text()
        second_file = (self.served.root / f"profiles/{USER}/progress/{second}.yaml").read_text()
        self.assertIn("level: review", first_file)
        self.assertIn("level: read2", second_file)
        self.assertIn(f"profiles/{USER}/progress/{second}.yaml", self.served.last_files())
        # The yes is in the profile, with its time, committed with the session.
        self.assertIn(f"profiles/{USER}/profile.yaml", self.served.last_files())
        self.assertIn("passage", (self.served.root / f"profiles/{USER}/profile.yaml").read_text())
        self.assertEqual(self.served.uncommitted(), "")

    # MARK: Skills and letters in a session

    def ignore_all_but(self, deck, keep):
        """Sets every entry of `deck` but those `keep` accepts to ignored, in one commit, so a
        session of the deck shows only the kind of card a test is about."""
        for path in sorted((self.served.root / "corpus" / deck).rglob("*.yaml")):
            if path.name in ("deck.yaml", "domain.yaml", "skill.yaml") or keep(path):
                continue
            entry = str(path.relative_to(self.served.root / "corpus"))[: -len(".yaml")]
            progress = self.served.root / f"profiles/{USER}/progress/{entry}.yaml"
            progress.parent.mkdir(parents=True, exist_ok=True)
            progress.write_text(f"entry: {entry}\nstatus: ignored\n")
        self.served.settle()
        git(self.served.root, "add", "-A")
        git(self.served.root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", f"only some of {deck}")

    def order_texts(self):
        return self.driver.execute_script("return [...document.querySelectorAll('#order li span')].map(s => s.textContent)")

    def test_skills_reorder_steps_by_touch_drag_and_keys(self):
        self.ignore_all_but("math", lambda path: "type: reorder_steps" in path.read_text())
        before = self.served.commits()
        self.driver.get(self.served.base + "/#/today")
        self.click(".deck[data-deck='math'] button")
        self.find("#order")
        self.assertEqual(self.screen()["question"]["kind"], "order")
        # The right order, from the question's file: its steps as the solution lists them.
        shown = self.order_texts()
        question = next(p for p in (self.served.root / "corpus/math").rglob("*.yaml")
                        if "type: reorder_steps" in p.read_text() and all(step in p.read_text() for step in shown))
        text = question.read_text()
        steps = [line.strip()[2:].strip().strip('"') for line in text.split("steps:")[1].split("solution:")[0].strip().splitlines()]
        solution = [int(n) for n in re.search(r"solution: \[([\d, ]+)\]", text).group(1).split(",")]
        target = [steps[i] for i in solution]
        self.assertEqual(sorted(target), sorted(shown))
        # The first step is dragged to the top with a finger…
        items = self.driver.find_elements(By.CSS_SELECTOR, "#order li")
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(self.driver, mouse=finger)
        mover = items[shown.index(target[0])]
        top = items[0].rect
        start = mover.rect
        actions.pointer_action.move_to_location(int(start["x"] + 20), int(start["y"] + start["height"] / 2))
        actions.pointer_action.pointer_down()
        actions.pointer_action.pause(0.1)
        for step in range(1, 11):
            y = start["y"] + start["height"] / 2 + (top["y"] + top["height"] / 2 - start["y"] - start["height"] / 2) * step / 10
            actions.pointer_action.move_to_location(int(start["x"] + 20), int(y))
            actions.pointer_action.pause(0.05)
        actions.pointer_action.pointer_up()
        actions.perform()
        self.assertEqual(self.order_texts()[0], target[0])
        # …and the rest are moved up with the arrow keys.
        for position in range(1, len(target)):
            current = self.order_texts()
            index = current.index(target[position])
            item = self.driver.find_elements(By.CSS_SELECTOR, "#order li")[index]
            for _ in range(index - position):
                item.send_keys(Keys.ARROW_UP)
        self.assertEqual(self.order_texts(), target)
        self.shoot("reorder-1280")
        version = self.screen()["version"]
        self.click("#submit")
        self.wait_for_screen_change(version)
        self.assertTrue(self.screen()["feedback"]["correct"], self.screen())
        while self.screen()["number"] == 1 and not self.finished():
            self.answer_by_clicking()
        self.click("#quit")
        self.find("#summary")
        self.assertEqual(self.served.commits(), before + 1)
        entry = str(question.relative_to(self.served.root / "corpus"))[: -len(".yaml")]
        self.assertIn(f"profiles/{USER}/progress/{entry}.yaml", self.served.last_files())
        # Right first time: a passing grade (good, or easy when answered fast).
        self.assertRegex((self.served.root / f"profiles/{USER}/progress/{entry}.yaml").read_text(), r"grade: (good|easy)")
        self.assertEqual(self.served.uncommitted(), "")

    def test_a_letter_in_a_study_session(self):
        before = self.served.commits()
        self.driver.get(self.served.base + "/#/today")
        self.click(".deck[data-deck='alphabet'] button")
        self.find("#card")
        self.assertEqual(self.screen()["kind"], "letter")
        self.assertIn("from memory", self.find("#card").text)
        # Before it is written, nothing of the template is on screen.
        self.assertFalse(self.driver.find_elements(By.CSS_SELECTOR, "#letter-template"))
        version = self.screen()["version"]
        ActionChains(self.driver).send_keys(" ").perform()
        self.wait_for_screen_change(version)
        self.assertEqual(self.screen()["kind"], "grade_choice")
        # The template is drawn as on the tracing page, stroke by stroke.
        strokes = self.screen()["grade_choice"]["letter"]["strokes"]
        self.assertEqual(len(self.find("#letter-template").find_elements(By.CSS_SELECTOR, "path.template")), len(strokes))
        self.shoot("letter-session-1280")
        version = self.screen()["version"]
        ActionChains(self.driver).send_keys("3").perform()
        self.wait_for_screen_change(version)
        # Only the first letter is unlocked, so the session ends with it.
        self.assertTrue(self.finished())
        self.assertIn("1 review", self.find("#summary").text)
        self.assertEqual(self.served.commits(), before + 1)
        self.assertIn(f"profiles/{USER}/progress/alphabet/a.yaml", self.served.last_files())
        self.assertIn("grade: good", (self.served.root / f"profiles/{USER}/progress/alphabet/a.yaml").read_text())

    # MARK: Tracing

    def test_trace_a_letter_with_pointer_events(self):
        before = self.served.commits()
        self.driver.get(self.served.base + "/#/trace/alphabet/a")
        pad = self.find("#pad")
        letters = self.driver.execute_script("return state.letters.letters")
        strokes = letters[0]["strokes"]
        # The letter's tips, as sentences, not the deck's ids (start-top-right…).
        tips = self.driver.find_elements(By.CSS_SELECTOR, "#letter-tips li")
        self.assertEqual([tip.get_attribute("data-tip") for tip in tips], letters[0]["tips"])
        self.assertIn("Start at the top right.", self.find("#letter-tips").text)
        self.assertNotIn("start-top-right", self.find("#letter-tips").text)
        box = pad.rect
        pen = PointerInput(interaction.POINTER_PEN, "pen")
        actions = ActionBuilder(self.driver, mouse=pen)
        for stroke in strokes:
            # Each template segment in a few steps, as a hand moves.
            points = []
            for (x0, y0), (x1, y1) in zip(stroke, stroke[1:]):
                points += [(x0 + (x1 - x0) * i / 4, y0 + (y1 - y0) * i / 4) for i in range(4)]
            points.append(tuple(stroke[-1]))
            x, y = points[0]
            actions.pointer_action.move_to_location(int(box["x"] + x / 100 * box["width"]), int(box["y"] + y / 100 * box["height"]))
            actions.pointer_action.pointer_down()
            for x, y in points[1:]:
                actions.pointer_action.move_to_location(int(box["x"] + x / 100 * box["width"]), int(box["y"] + y / 100 * box["height"]))
            actions.pointer_action.pointer_up()
        actions.perform()
        self.assertEqual(len(self.driver.execute_script("return state.strokes")), 2)
        self.shoot("trace-drawn-1280")
        self.click("#trace-done")
        score = int(self.find("#trace-score").text)
        self.assertGreaterEqual(score, 90)
        # The drawing stays over the template after scoring, to compare the two, until the
        # next drawing starts.
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#pad polyline.drawn.scored")), 2)
        # The bowl is a curve through the template's points (cubic Béziers), not a polygon.
        bowl = self.driver.find_elements(By.CSS_SELECTOR, "#pad path.template")[0].get_attribute("d")
        self.assertEqual(bowl.count("C"), len(strokes[0]) - 1, bowl)
        self.assertIn(f"profiles/{USER}/letters/alphabet/a.yaml", self.find("#trace-file").text)
        self.shoot("trace-1280")
        self.assertEqual(self.served.commits(), before + 1)
        self.assertEqual(self.served.last_subject(), f"Letters: alphabet/a trace {score}")
        attempts = (self.served.root / f"profiles/{USER}/letters/alphabet/a.yaml").read_text()
        self.assertIn("mode: trace", attempts)
        self.assertIn(f"score: {score}", attempts)
        self.assertIn("drawing:", attempts)
        self.assertEqual(self.served.uncommitted(), "")

    def test_trace_with_a_finger_left_handed(self):
        self.driver.get(self.served.base + "/#/trace/alphabet/a")
        before = self.served.commits()
        self.click("#left-handed")
        self.assertIn("left-handed", self.find(".trace-layout").get_attribute("class"))
        # The setting is the learner's, in their profile as `rote letters settings` keeps it.
        self.wait.until(lambda d: self.served.commits() == before + 1)
        self.assertIn("left_handed: true", (self.served.root / f"profiles/{USER}/profile.yaml").read_text())
        self.driver.refresh()
        self.assertIn("left-handed", self.find(".trace-layout").get_attribute("class"))
        self.assertTrue(self.find("#left-handed").is_selected())
        pad = self.find("#pad")
        controls = self.find(".trace-controls")
        self.assertGreater(controls.rect["x"], pad.rect["x"], "the controls sit on the right for a left hand")
        strokes = self.driver.execute_script("return state.letters.letters")[0]["strokes"]
        box = pad.rect
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(self.driver, mouse=finger)
        for stroke in strokes:
            x, y = stroke[0]
            actions.pointer_action.move_to_location(int(box["x"] + x / 100 * box["width"]), int(box["y"] + y / 100 * box["height"]))
            actions.pointer_action.pointer_down()
            for x, y in stroke[1:]:
                actions.pointer_action.move_to_location(int(box["x"] + x / 100 * box["width"]), int(box["y"] + y / 100 * box["height"]))
            actions.pointer_action.pointer_up()
        actions.perform()
        self.assertEqual(len(self.driver.execute_script("return state.strokes")), len(strokes))
        self.click("#trace-done")
        self.assertGreaterEqual(int(self.find("#trace-score").text), 80)
        self.shoot("trace-left-handed-1280")
        self.assertIn("mode: trace", (self.served.root / f"profiles/{USER}/letters/alphabet/a.yaml").read_text())

    # MARK: Reader

    def test_reader_marks_a_text_and_ignores_a_word(self):
        before = self.served.commits()
        self.driver.get(self.served.base + "/#/reader")
        self.find("#reader-input").send_keys("They ran to the house, and I say hello to the quokka.")
        self.click("#read")
        ran = self.find(".word[data-word='ran']")
        self.assertEqual(ran.get_attribute("data-status"), "new")
        self.assertEqual(self.find(".word[data-word='quokka']").get_attribute("data-status"), "none")
        ran.click()
        self.assertIn("run", self.find("#word-panel h2").text)
        self.shoot("reader-1280")
        self.click("#ignore-word")
        self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".word[data-word='ran']").get_attribute("data-status") == "ignored")
        self.assertEqual(self.served.commits(), before + 1)
        self.assertEqual(self.served.last_subject(), "Ignore: english-a1/run")
        self.assertIn("status: ignored", (self.served.root / f"profiles/{USER}/progress/english-a1/run.yaml").read_text())

    def test_reader_adds_a_word_marks_one_known_and_ignores_one_in_no_deck(self):
        before = self.served.commits()
        self.driver.get(self.served.base + "/#/reader")
        self.find("#reader-input").send_keys("The house is big, and I say hello to the quokka.")
        self.click("#read")
        # Add to study: active, with a first review, so the next session starts with it.
        self.find(".word[data-word='house']").click()
        self.click("#add-word")
        self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".word[data-word='house']").get_attribute("data-status") == "learning")
        self.assertEqual(self.served.last_subject(), "Add: english-a1/house")
        self.assertIn("grade: again", (self.served.root / f"profiles/{USER}/progress/english-a1/house.yaml").read_text())
        # I know it: the warm start's reviews, marked as the learner's word.
        self.find(".word[data-word='say']").click()
        self.click("#known-word")
        self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".word[data-word='say']").get_attribute("data-status") == "known")
        self.assertIn("synthetic: known", (self.served.root / f"profiles/{USER}/progress/english-a1/say.yaml").read_text())
        # A word in no deck is ignored wherever it turns up, through the profile.
        self.find(".word[data-word='quokka']").click()
        self.click("#ignore-word")
        self.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, ".word[data-word='quokka']").get_attribute("data-status") == "ignored")
        self.assertIn("quokka", (self.served.root / f"profiles/{USER}/profile.yaml").read_text())
        self.assertEqual(self.served.commits(), before + 3)
        self.assertEqual(self.served.uncommitted(), "")

    # MARK: Library and stats, screenshots

    def test_library_search_and_entry_history(self):
        self.driver.get(self.served.base + "/#/library")
        self.find("#search").send_keys("run")
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#entries a[href='#/entry/english-a1/run']"))
        # The learner sees the word and its meaning, not the entry's id.
        self.assertNotIn("english-a1/", self.find("#entries").text)
        self.click("#entries a[href='#/entry/english-a1/run']")
        self.assertIn("word: run", self.find("pre.file").text)
        self.assertTrue(self.find("#commits").text)

    def test_entry_page_shows_progress_as_rote_show_does(self):
        # Two reviews of `run`, through a session, then the entry page beside `rote show`.
        self.click(".deck[data-deck='english-a1'] button")
        self.find("#card")
        while self.screen()["number"] == 1 and not self.finished():
            self.answer_by_clicking()
        self.click("#quit")
        self.find("#summary")
        reviewed = [f for f in self.served.last_files() if f.startswith(f"profiles/{USER}/progress/english-a1/")][0]
        entry = reviewed[len(f"profiles/{USER}/progress/"):-len(".yaml")]
        shown = subprocess.run([str(ROTE), "-C", str(self.served.root), "show", entry], check=True, capture_output=True, text=True).stdout
        confidence = re.search(r"confidence (\d+)/100 · mastery (.+)", shown)
        self.driver.get(self.served.base + "/#/entry/" + entry)
        self.assertEqual(self.find("#entry-confidence strong").text, f"{confidence.group(1)} / 100")
        self.assertEqual(self.find("#entry-mastery strong").text.lower(), confidence.group(2).strip())
        stability = re.search(r"stability ([\d.]+) d", shown).group(1)
        self.assertIn(str(round(float(stability), 1)).rstrip("0").rstrip("."), self.find("#entry-stability strong").text)
        self.assertTrue(self.find("#entry-due strong").text)

    def test_an_entrys_picture_is_shown_through_the_token(self):
        # A picture beside the entry, named in it: the page fetches it with the token and shows
        # it through a blob: address, which the page's CSP allows.
        run = self.served.root / "corpus/english-a1/run.yaml"
        run.write_text(run.read_text() + "image: run.png\n")
        (self.served.root / "corpus/english-a1/run.png").write_bytes(base64.b64decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="))
        self.served.settle()
        git(self.served.root, "add", "-A")
        git(self.served.root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "a picture")
        self.driver.get(self.served.base + "/#/entry/english-a1/run")
        self.wait.until(lambda d: d.execute_script("const i = document.getElementById('entry-image'); return i && i.complete && i.naturalWidth > 0 && i.src.startsWith('blob:')"))

    def test_the_token_stays_in_the_tab_and_never_in_a_cookie(self):
        # setUp opened the printed address: the page took the token out of the address bar.
        self.assertNotIn("token", self.driver.current_url)
        self.assertEqual(self.driver.get_cookies(), [], "no credential in a cookie on a loopback address")
        self.assertEqual(self.driver.execute_script("return sessionStorage.getItem('rote.token')"), self.served.token)
        # A tab that lost it (sessionStorage is per tab) says which address to open, and shows nothing.
        self.driver.execute_script("sessionStorage.clear()")
        self.driver.get(self.served.base + "/#/library")
        self.assertIn("rote serve", self.find("#no-token").text)
        self.assertEqual(self.driver.find_elements(By.ID, "entries"), [])
        # The printed address opened again in that tab (only its fragment differs): the page takes it.
        self.driver.get(self.served.address)
        self.find("#today-due")
        self.assertNotIn("token", self.driver.current_url)
        # A browser that never had the address, in Arabic: the message in Arabic, nothing of the library.
        other = browser(language="ar")
        try:
            other.get(self.served.base + "/")
            message = WebDriverWait(other, 15).until(EC.presence_of_element_located((By.ID, "no-token")))
            self.assertIn("افتح العنوان", message.text)
            self.assertEqual(other.find_element(By.TAG_NAME, "html").get_attribute("dir"), "rtl")
            self.assertEqual(other.find_elements(By.ID, "today-due"), [])
        finally:
            other.quit()

    def test_stats_draw_svg(self):
        self.driver.get(self.served.base + "/#/stats")
        heatmap = self.find("#heatmap")
        self.assertEqual(len(heatmap.find_elements(By.CSS_SELECTOR, "rect.day")), 90)
        # 90 days span three or four months; every other weekday is named; five shades explained.
        self.assertGreaterEqual(len(heatmap.find_elements(By.CSS_SELECTOR, "text.month")), 3)
        self.assertEqual(len(heatmap.find_elements(By.CSS_SELECTOR, "text.weekday")), 4)
        self.assertEqual(len(self.find("#heat-legend").find_elements(By.CSS_SELECTOR, ".swatch")), 5)
        forecast = self.find("#forecast")
        self.assertEqual(len(forecast.find_elements(By.CSS_SELECTOR, "rect.bar")), 31)
        # The y-axis: counts from 0 to a round number at or above the busiest day.
        counts = [int(t.text) for t in forecast.find_elements(By.CSS_SELECTOR, "text.count")]
        most = max(self.driver.execute_script("return fetch('/api/stats', {headers: {'X-Rote-Token': sessionStorage.getItem('rote.token')}}).then(r => r.json()).then(s => s.forecast)"))
        self.assertEqual(counts[0], 0)
        self.assertGreaterEqual(counts[-1], most)
        # A fresh library has practised no skill and forgotten nothing.
        self.find("#skills-none")
        self.find("#leeches-none")
        # `rote simulate` drawn: a year of 53 weeks, minutes as bars, memorised as a line.
        minutes = self.find("#simulation-minutes")
        self.assertEqual(len(minutes.find_elements(By.CSS_SELECTOR, "rect.bar")), 53)
        memorised = self.find("#simulation-memorised")
        self.assertEqual(len(memorised.find_elements(By.CSS_SELECTOR, "polyline.sim-line")), 1)
        self.assertRegex(self.find("#simulation-summary").text, r"\d+ entries memorised after 365 days")

    def test_stats_list_skills_and_leeches(self):
        # A leech: english-a1/run forgotten 8 times, as a learner's reviews would leave it.
        reviews = ["  - {id: l0, at: 2026-10-01T09:00:00Z, grade: good}"]
        for lapse in range(8):
            reviews.append(f"  - {{id: a{lapse}, at: 2026-10-{10 + 2 * lapse}T09:00:00Z, grade: again}}")
            reviews.append(f"  - {{id: g{lapse}, at: 2026-10-{10 + 2 * lapse}T09:10:00Z, grade: good}}")
        (self.served.root / f"profiles/{USER}/progress/english-a1").mkdir(parents=True, exist_ok=True)
        (self.served.root / f"profiles/{USER}/progress/english-a1/run.yaml").write_text(
            "entry: english-a1/run\nstatus: active\n"
            "state: {phase: review, stability: 1.0, difficulty: 9.0, due: 2026-10-30T09:00:00Z, reps: 17, lapses: 8}\n"
            "reviews:\n" + "\n".join(reviews) + "\n")
        self.served.settle()
        git(self.served.root, "add", "-A")
        git(self.served.root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "lapses")
        self.driver.get(self.served.base + "/#/today")
        self.click(".deck[data-deck='math'] button")
        self.find("#card")
        while self.screen()["number"] == 1 and not self.finished():
            self.answer_by_clicking()
        self.click("#quit")
        self.find("#summary")
        self.served.settle()
        stats = subprocess.run([str(ROTE), "-C", str(self.served.root), "stats"], check=True, capture_output=True, text=True).stdout
        skill = re.search(r"^skills:\n  (\S+): (\d+) attempt", stats, re.M)
        self.assertIsNotNone(skill, stats)
        self.driver.get(self.served.base + "/#/stats")
        row = self.find(f"#skills [data-skill='{skill.group(1)}']")
        self.assertIn(f"{skill.group(2)} answered", row.text)
        self.assertNotIn(skill.group(1), row.text, "the skill's title, not its path")
        self.assertIn("\n  english-a1/run\n", stats.split("\nleeches")[1])
        leech = self.find("#leeches a[href='#/entry/english-a1/run']")
        self.assertIn("run", leech.text)
        self.assertIn("forgotten 8 times", self.find("#leeches").text)
        # Each deck's scheduling: english-a1's learning steps are its own, the rest defaults.
        english = self.find("#schedules [data-deck='english-a1']")
        self.assertIn("aims for 90% recall (default)", english.text)
        self.assertIn("a leech after 8 lapses, kept in study (default)", english.text)
        self.shoot("stats-with-data-1280")


class ServeOptionsTests(unittest.TestCase):
    """--host warns that the network can reach the server; --open hands the address to the
    desktop's opener (xdg-open), here a stand-in that writes down what it was given."""

    def setUp(self):
        self.served = Served()

    def tearDown(self):
        self.served.stop()

    def test_host_other_than_loopback_is_warned_of(self):
        process = subprocess.Popen([str(ROTE), "-C", str(self.served.root), "serve", "--host", "0.0.0.0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.served.process = process
        address = process.stdout.readline().strip()
        self.assertRegex(address, r"^http://0\.0\.0\.0:\d+/#token=[0-9a-f]{64}$")
        process.send_signal(2)
        process.wait(timeout=30)
        self.assertIn("warning: listening on 0.0.0.0: other machines on the network can reach this server", process.stderr.read())

    def test_open_hands_the_address_to_the_desktop(self):
        bin_dir = self.served.folder / "bin"
        bin_dir.mkdir()
        opened = self.served.folder / "opened"
        opener = bin_dir / "xdg-open"
        opener.write_text(f"#!/bin/sh\necho \"$@\" > {opened}\n")
        opener.chmod(0o755)
        environment = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
        process = subprocess.Popen([str(ROTE), "-C", str(self.served.root), "serve", "--open"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        self.served.process = process
        address = process.stdout.readline().strip()
        for _ in range(100):
            if opened.exists() and opened.read_text().strip():
                break
            time.sleep(0.05)
        self.assertEqual(opened.read_text().strip(), address)


class LanguageAndLayoutTests(unittest.TestCase):
    """Arabic from Accept-Language, the switch, and every page at 1280, 390 and 360 px."""

    def setUp(self):
        self.served = Served().start()

    def tearDown(self):
        self.served.stop()

    def test_arabic_ui_reads_right_to_left_and_the_switch_changes_it(self):
        driver = browser(language="ar")
        try:
            wait = WebDriverWait(driver, 15)
            driver.get(self.served.address)
            wait.until(EC.presence_of_element_located((By.ID, "today-due")))
            html = driver.find_element(By.TAG_NAME, "html")
            self.assertEqual(html.get_attribute("lang"), "ar")
            self.assertEqual(html.get_attribute("dir"), "rtl")
            self.assertEqual(driver.find_element(By.CSS_SELECTOR, "nav a[data-page='today']").text, "اليوم")
            Select = __import__("selenium.webdriver.support.select", fromlist=["Select"]).Select
            Select(driver.find_element(By.ID, "language")).select_by_value("en")
            wait.until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("dir") == "ltr")
            self.assertEqual(driver.find_element(By.CSS_SELECTOR, "nav a[data-page='today']").text, "Today")
        finally:
            driver.quit()

    # Every page, as a learner reaches it: (name, how to get there, what shows it is drawn).
    PAGES = [
        ("today", "#/today", "#today-due"),
        ("reader", "#/reader", ".word"),
        ("trace", "#/trace", "#pad svg"),
        ("stats", "#/stats", "#heatmap"),
        ("library", "#/library", "#entries table"),
        ("entry", "#/entry/english-a1/run", "#progress-facts"),
        ("study-vocabulary", "english-a1", "#card"),
        ("study-passages", "kjv", "#card"),
        ("study-letters", "alphabet", "#card"),
        ("study-skills", "math", "#card"),
    ]

    # Text of the page a learner reads as UI, for the English-in-Arabic check: not what the
    # library holds (isolated in <bdi> or dir="auto": deck titles, words, files, a card's
    # examples).
    ENGLISH_LEAKS = r"""
        const [english, arabic] = arguments;
        const escape = text => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        const fragments = Object.keys(english).filter(key => english[key] !== arabic[key])
          .flatMap(key => english[key].split(/\{[a-z]+\}/)).map(f => f.trim()).filter(f => /[A-Za-z]{2,}/.test(f));
        const patterns = [...new Set(fragments)].map(f => [f, new RegExp("(^|[^A-Za-z])" + escape(f) + "($|[^A-Za-z])")]);
        const skip = "bdi, [dir=auto], [data-dir=auto], [lang=en], pre, textarea, #language";
        const leaks = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
          const element = walker.currentNode.parentElement;
          if (!element || element.closest(skip) || !element.checkVisibility()) continue;
          for (const [fragment, pattern] of patterns)
            if (pattern.test(walker.currentNode.textContent)) leaks.push(fragment + " in " + JSON.stringify(walker.currentNode.textContent));
        }
        return leaks;
    """


    # Controls a finger taps, smaller than 44 × 44 CSS px. A word of the reader's text is
    # inline in its line (its line is 44 px high) and is left out.
    SMALL_TARGETS = """
        const small = [];
        for (const el of document.querySelectorAll("button, a, select, input:not([type=checkbox]):not([type=file]), label.check, [role=button]:not(.word)")) {
          if (!el.checkVisibility()) continue;
          const box = el.getBoundingClientRect();
          if (box.width < 43.5 || box.height < 43.5) small.push(`${el.tagName} ${el.id || el.className} "${el.textContent.trim().slice(0, 20)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
        }
        return small;
    """

    @staticmethod
    def emulate(driver, width, height):
        """A phone's viewport: headless Chromium's window is never narrower than 500 px."""
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})

    def open_page(self, driver, wait, page, target, ready):
        if page.startswith("study-"):
            driver.get(self.served.base + "/#/today")
            wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, f".deck[data-deck='{target}'] button"))).click()
        else:
            driver.get(self.served.base + "/" + target)
            if page == "reader":
                box = wait.until(EC.presence_of_element_located((By.ID, "reader-input")))
                box.send_keys("I run every morning to the house. أنا أجري كل صباح.")
                driver.find_element(By.ID, "read").click()
                wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".word[data-word='run']"))).click()
                wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#word-panel h2")))
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ready)))

    def test_every_page_fits_a_phone_in_both_languages(self):
        strings = json.loads((CHECKOUT / "web/strings.json").read_text())
        timings, widths, problems = {}, {}, []
        for language in ["en", "ar"]:
            for width in [1280, 390, 360]:
                phone = width < 500
                height = {1280: 900, 390: 844, 360: 740}[width]
                driver = browser(width=1280 if phone else width, height=900, language=language)
                try:
                    if phone:
                        self.emulate(driver, width, height)
                    wait = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException])
                    started = time.monotonic()
                    driver.get(self.served.address)
                    wait.until(EC.presence_of_element_located((By.ID, "today-due")))
                    timings[f"{language}-{width}"] = time.monotonic() - started
                    self.assertEqual(driver.execute_script("return innerWidth"), width)
                    for page, target, ready in self.PAGES:
                        self.open_page(driver, wait, page, target, ready)
                        where = f"{page} in {language} at {width} px"
                        scroll, client = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
                        widths[f"{page}-{language}-{width}"] = scroll
                        if scroll > client:
                            problems.append(f"{where}: {scroll} px wide in a {client} px viewport")
                        if language == "ar":
                            problems += [f"{where}: English UI text {leak}" for leak in driver.execute_script(self.ENGLISH_LEAKS, strings["en"], strings["ar"])]
                        if phone:
                            problems += [f"{where}: small target {small}" for small in driver.execute_script(self.SMALL_TARGETS)]
                            # Every tab on screen and its whole name shown.
                            for tab in driver.execute_script("return [...document.querySelectorAll('nav a')].map(a => { const r = a.getBoundingClientRect(); return [a.textContent, r.left, r.right, a.scrollWidth, a.clientWidth]; })"):
                                name, left, right, inner, outer = tab
                                if left < 0 or right > width or inner > outer:
                                    problems.append(f"{where}: tab {name} cut ({left:.0f}–{right:.0f}, text {inner} in {outer})")
                            if page == "trace":
                                bottom = driver.execute_script("return document.getElementById('pad').getBoundingClientRect().bottom")
                                if bottom > height:
                                    problems.append(f"{where}: the pad ends at {bottom:.0f} px, below the first screen ({height} px)")
                        self.shoot_whole(driver, f"{page}-{language}-{width}", width, height, phone)
                        if page.startswith("study-"):
                            wait.until(EC.element_to_be_clickable((By.ID, "quit"))).click()
                            wait.until(EC.presence_of_element_located((By.ID, "summary")))
                finally:
                    driver.quit()
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / "first-render.json").write_text(json.dumps(timings, indent=1))
        (SHOTS / "page-widths.json").write_text(json.dumps(widths, indent=1))
        self.assertEqual(problems, [])
        # First render: the address to Today drawn.
        self.assertLess(min(timings.values()), 5.0, timings)

    # The action that answers a screen, clicked as a learner would: the first choice, the steps
    # as shown, a few words of a passage, yes to a consent question, going on.
    CLICK_FOR = r"""
        const s = state.screen;
        const click = css => { const el = document.querySelector(css); if (!el) return css; el.click(); return ""; };
        const type = (text, css) => { const box = document.getElementById("answer"); box.value = text; return click(css || "#submit"); };
        switch (s.kind) {
          case "card": case "letter": case "leech": return click("#go");
          case "question": return s.question.typed ? type("run") : s.question.kind === "order" ? click("#submit") : click("[data-choice='1']");
          case "feedback": return click(s.feedback.proposed ? "#accept" : "#go");
          case "grade_choice": return click(s.grade_choice.proposed ? "#accept" : "[data-grade='good']");
          case "passage": return ["read", "read_again"].includes(s.passage.step) ? click("#go") : type("in the beginning");
          case "reflection": return click("#skip");
          case "consent": return click("#yes");
          default: return "no action for " + s.kind;
        }
    """

    def test_a_whole_session_of_each_kind_on_a_phone_and_a_desktop_in_both_languages(self):
        """Issue #33: every screen of a session of each deck kind, at 1280 and 390 px, in English
        and Arabic: nothing scrolls sideways, no English UI text in Arabic, one request per
        action, and no question shows an answer its feedback then gives."""
        strings = json.loads((CHECKOUT / "web/strings.json").read_text())
        problems, screens = [], 0
        for language in ["en", "ar"]:
            for width in [1280, 390]:
                phone = width < 500
                driver = browser(width=1280, height=900, language=language)
                try:
                    if phone:
                        self.emulate(driver, width, 844)
                    wait = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException])
                    driver.get(self.served.address)
                    wait.until(EC.presence_of_element_located((By.ID, "today-due")))
                    # Counts the page's requests to /api/session/reply (the page is never reloaded).
                    driver.execute_script("""
                        window.replies = 0;
                        const fetch = window.fetch;
                        window.fetch = (url, ...rest) => { if (String(url).includes("/api/session/reply")) window.replies += 1; return fetch(url, ...rest); };
                    """)
                    for deck in ["english-a1", "kjv", "alphabet", "math"]:
                        # A short session of the deck: two new entries and two reviews at most.
                        driver.execute_async_script("""
                            const [deck, done] = arguments;
                            fetch("/api/session", { method: "POST", credentials: "omit", headers: { "X-Rote-Token": sessionStorage.getItem("rote.token"), "Content-Type": "application/json" },
                              body: JSON.stringify({ decks: [deck], new: 2, reviews: 2 }) }).then(() => { location.hash = "#/study"; done(); });
                        """, deck)
                        wait.until(lambda d: d.execute_script("return state.screen && !state.busy && document.querySelector('#card, #summary') ? state.screen.kind : ''"))
                        asked = None
                        for step in range(80):
                            screen = driver.execute_script("return state.screen")
                            where = f"{deck} {screen['kind']} in {language} at {width} px"
                            screens += 1
                            scroll, client = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
                            if scroll > client:
                                problems.append(f"{where}: {scroll} px wide in {client}")
                            if language == "ar":
                                problems += [f"{where}: English UI text {leak}" for leak in driver.execute_script(self.ENGLISH_LEAKS, strings["en"], strings["ar"])]
                            if screen["kind"] == "summary":
                                break
                            if screen["kind"] == "question":
                                # What the question asks (its prompt), beside its choices.
                                asked = driver.execute_script("const p = document.getElementById('prompt-text'); return p ? p.textContent : ''")
                            elif screen["kind"] == "feedback":
                                expected = screen["feedback"].get("expected")
                                if asked and expected and re.search(r"(^|\W)" + re.escape(expected) + r"($|\W)", asked):
                                    problems.append(f"{where}: the question showed its answer {expected!r}")
                                asked = None
                            replies, version = driver.execute_script("return [window.replies, state.screen.version]")
                            missing = driver.execute_script(self.CLICK_FOR)
                            if missing:
                                problems.append(f"{where}: {missing}")
                                break
                            wait.until(lambda d: d.execute_script("return state.screen && !state.busy ? state.screen.version : -1") > version)
                            if driver.execute_script("return window.replies") != replies + 1:
                                problems.append(f"{where}: {driver.execute_script('return window.replies') - replies} requests for one action")
                        else:
                            problems.append(f"{deck} in {language} at {width} px: no end after 80 actions")
                        if language == "ar" and phone and deck == "english-a1":
                            self.shoot_whole(driver, f"study-summary-{language}-{width}", width, 844, phone)
                        driver.get(self.served.base + "/#/today")
                        wait.until(EC.presence_of_element_located((By.ID, "today-due")))
                finally:
                    driver.quit()
        self.maxDiff = None
        self.assertEqual(problems, [])
        self.assertGreater(screens, 40)

    def shoot_whole(self, driver, name, width, height, phone):
        """The whole page, not just the first screenful."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.execute_script("window.scrollTo(0, 0)")
        whole = max(driver.execute_script("return document.documentElement.scrollHeight"), height)
        if phone:
            self.emulate(driver, width, whole)
        else:
            driver.set_window_size(width, whole)
        driver.save_screenshot(str(SHOTS / f"{name}.png"))
        if phone:
            self.emulate(driver, width, height)
        else:
            driver.set_window_size(width, height)

    def test_favicon_answers_without_the_token(self):
        driver = browser()
        try:
            driver.get(self.served.base + "/favicon.ico")
            self.assertTrue(driver.find_elements(By.TAG_NAME, "svg") or driver.find_elements(By.TAG_NAME, "img"))
        finally:
            driver.quit()

if __name__ == "__main__":
    program = unittest.main(verbosity=2, exit=False)
    result = program.result
    # tools/run-tests adds these to its one closing line: passed, failed, skipped.
    if os.environ.get("ROTE_TEST_COUNTS"):
        failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
        skipped = len(result.skipped)
        Path(os.environ["ROTE_TEST_COUNTS"]).write_text(
            f"{result.testsRun - failed - skipped} {failed} {skipped}\n")
    sys.exit(0 if result.wasSuccessful() else 1)
