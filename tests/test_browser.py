"""The replay page as a person sees it: Chromium (headless, driven by Selenium through
chromedriver) opens the page `winnable replay --html` writes for a won Chinese line of 100+
moves, steps through it with the arrow keys, and after each step the board shown has the cards
the engine says; then a screenshot, which must not be blank.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them with apt-get where
they are missing) and ``selenium`` (the ``test`` extra).  Skipped only where no browser could
be installed, with the reason."""

import io
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from winnable.cards import CODES
from winnable.games import get_game
from winnable.session import Session, read_moves, verify_line

LINE = Path(__file__).resolve().parent / "data" / "chinese_won_line.txt"
CODE = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(CODES) + r")(?![A-Za-z0-9])")
PAGE_LIMIT = 1_000_000  # bytes: the target for a 100+-move Chinese line
# A step in the page (the key's handler and the layout of the board it shows), in ms: 5 on
# average and 18 at most on a loaded 2-core machine; the limits leave room for a busy CI.
STEP_MEAN_LIMIT, STEP_MAX_LIMIT = 50, 500
# Each position's step, timed inside the page: a key event, then the board shown laid out.
TIME_STEPS = """
    var root = document.getElementById("line"), times = [];
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "Home"}));
    for (var k = 1; k < root.querySelectorAll(".wl-frame").length; k++) {
        var started = performance.now();
        document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight"}));
        root.querySelector(".wl-frame.on").getBoundingClientRect();
        times.push(performance.now() - started);
    }
    return [times.reduce(function (a, b) { return a + b; }, 0) / times.length,
            Math.max.apply(null, times)];"""


def browser_paths() -> tuple[str, str] | None:
    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser"))), None)
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed "
                                    "(pip install -e '.[test]')")
    paths = browser_paths()
    if paths is None:
        pytest.skip("no Chromium and chromedriver here: .ci/run installs Debian's chromium and "
                    "chromium-driver with apt-get, which this machine could not do")
    browser, driver = paths
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=900,900",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    # The driver's path is given, so Selenium Manager (which would download one) never runs.
    service = webdriver.ChromeService(executable_path=driver)
    chrome = webdriver.Chrome(options=options, service=service)
    chrome.set_page_load_timeout(60)
    yield chrome
    chrome.quit()


def stored_line() -> tuple[int, list[str]]:
    """The deal and the won line of tests/data/chinese_won_line.txt."""
    text = LINE.read_text()
    deal = int(re.search(r"--seed (\d+)", text).group(1))
    return deal, read_moves(text)


def engine_view(table) -> tuple[set[str], int]:
    """The cards the engine says the player sees (the foundations' tops, the face-up pile
    cards; the stock once dealt) and how many cards lie face down, from its state."""
    cards, length, down, found, misc = table.state
    seen = {CODES[s * 13 + int(found[s]) - 1] for s in range(4) if found[s]}
    seen |= {CODES[int(cards[p, i])] for p in range(7) for i in range(int(down[p]),
                                                                       int(length[p]))}
    face_down = int(np.sum(down)) + (0 if misc[0] else 3)
    return seen, face_down


def test_a_won_chinese_line_steps_in_chromium(chromium, run_cli, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = get_game("chinese")
    deal, moves = stored_line()
    verdict = verify_line(game, game.deal(deal), moves)
    assert verdict.ok and verdict.outcome == "win" and len(moves) >= 100, verdict.text()

    page = tmp_path / "line.html"
    code, _, err = run_cli("replay", "--game", "chinese", "--seed", deal, "--moves-file", LINE,
                           "--html", page)
    assert code == 0, err
    assert page.stat().st_size < PAGE_LIMIT

    chromium.get(page.as_uri())
    root = chromium.find_element(By.ID, "line")
    keys = ActionChains(chromium)

    def shown() -> tuple[int, set[str], int, str]:
        """The position the page shows: its number, the faces, the backs, the caption."""
        return chromium.execute_script("""
            var root = document.getElementById("line");
            var frame = root.querySelector(".wl-frame.on");
            var faces = Array.from(frame.querySelectorAll("use[data-card]"),
                                   function (u) { return u.getAttribute("data-card"); });
            return [Number(root.getAttribute("data-at")), faces,
                    frame.querySelectorAll('use[href="#w-back"]').length,
                    root.querySelector(".wl-caption").textContent];""")

    table = game.table(game.deal(deal), game.rules(), None)
    session = Session(game, game.deal(deal), forced=False)
    at, faces, backs, caption = shown()
    assert (at, set(faces), backs, caption) == (0, *engine_view(table), "the deal")
    for number, move in enumerate(moves, start=1):
        step = session.play(move)[0]
        table.play(table.parse(move))
        keys.send_keys(Keys.ARROW_RIGHT).perform()
        at, faces, backs, caption = shown()
        seen, face_down = engine_view(table)
        assert at == number and set(faces) == seen and len(faces) == len(seen), move
        assert backs == face_down and caption.startswith(step.text()), move
    assert "game over: win, score 52" in caption

    keys.send_keys(Keys.ARROW_RIGHT).perform()  # past the end: stays at the end
    assert shown()[0] == len(moves)
    keys.send_keys(Keys.HOME).perform()
    at, _, backs, _ = shown()
    assert (at, backs) == (0, 3 + 18)  # the deal: the stock and 18 cards face down
    root.find_element(By.CSS_SELECTOR, 'button[data-go="next"]').click()
    assert shown()[0] == 1
    keys.send_keys(Keys.END).perform()
    assert shown()[0] == len(moves)
    mean, slowest = chromium.execute_script(TIME_STEPS)
    assert mean < STEP_MEAN_LIMIT and slowest < STEP_MAX_LIMIT, (mean, slowest)

    picture = chromium.get_screenshot_as_png()
    (tmp_path / "line.png").write_bytes(picture)
    import matplotlib.image
    pixels = matplotlib.image.imread(io.BytesIO(picture), format="png")[..., :3]
    colours = np.unique((pixels * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    felt = np.all(np.abs(pixels - np.array([0x2f, 0x6b, 0x4f]) / 255) < 0.02, axis=-1)
    assert len(colours) > 20 and felt.mean() > 0.05, "the screenshot is blank"


def test_notebook_widgets_step_on_their_own(chromium, tmp_path):
    """Two line widgets in one page, as two cells of a notebook show them: each has its own
    ids, and the arrow keys step the one clicked, not the other."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = get_game("nineball")
    first, second = game.solve(1)._repr_html_(), game.solve(2)._repr_html_()
    page = tmp_path / "cells.html"
    page.write_text(f"<!DOCTYPE html><html><body>{first}<p>another cell</p>{second}</body></html>")
    chromium.get(page.as_uri())
    one, two = chromium.find_elements(By.CSS_SELECTOR, "div.wl")
    assert one.get_attribute("id") != two.get_attribute("id")
    two.find_element(By.CSS_SELECTOR, 'button[data-go="next"]').click()
    ActionChains(chromium).send_keys(Keys.ARROW_RIGHT).perform()
    assert (one.get_attribute("data-at"), two.get_attribute("data-at")) == ("0", "2")
    frame = two.find_element(By.CSS_SELECTOR, ".wl-frame.on")
    assert frame.get_attribute("data-frame") == "2" and frame.is_displayed()
    assert len(two.find_elements(By.CSS_SELECTOR, ".wl-frame")) == len(game.solve(2).moves) + 1
