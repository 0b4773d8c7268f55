"""Boards as pictures (``winnable.pictures``): every game's board is drawn with the cards its
text board shows, hidden cards never reach a picture that does not peek, the last move is
marked, and the pages `solve --html`, `replay --html` and `play`'s `show` write replay the line.
The browser's view of a page is tested in ``tests/test_browser.py``."""

import html
import io
import random
import re
import sys
from pathlib import Path

import pytest

from winnable.cards import CODES
from winnable.games import GAMES, get_game
from winnable.pictures import Scene
from winnable.pictures.scene import last_move
from winnable.session import Session, replay_line

ROOT = Path(__file__).resolve().parent.parent
DOCS_BOARD = ROOT / "docs" / "board-nineball.svg"
CODE = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(CODES) + r")(?![A-Za-z0-9])")
SHOWN = re.compile(r'data-card="([^"]+)"')


def codes_in(text: str) -> set[str]:
    """Every card code written anywhere in ``text`` (as a word of its own)."""
    return set(CODE.findall(text))


def random_sessions(name, deals=range(1, 9), moves=30):
    """Sessions of ``name`` along seeded random lines: one per position reached (Addario's
    forced pairs too)."""
    game = get_game(name)
    for seed in deals:
        session = Session(game, game.deal(seed), forced=False)
        rng = random.Random(seed)
        yield session
        for _ in range(moves):
            if session.over:
                break
            session.play(rng.choice(session.legal_moves())[0])
            yield session


@pytest.mark.parametrize("name", list(GAMES))
def test_every_board_shows_what_the_text_board_shows(name):
    """The cards a picture shows face up are those the text board names, without peeking and
    with; without peeking, no hidden card's code is anywhere in the picture."""
    positions = 0
    for session in random_sessions(name):
        seen, everything = codes_in(session.board()), codes_in(session.board(peek=True))
        hidden = everything - seen
        picture = session.picture().svg
        assert set(SHOWN.findall(picture)) == seen
        assert not codes_in(picture) & hidden, "a hidden card leaks into the picture"
        assert picture.count('href="#w-back"') >= (1 if hidden else 0)
        assert set(SHOWN.findall(session.picture(peek=True).svg)) == everything
        positions += 1
    assert positions > 20


@pytest.mark.parametrize("name", list(GAMES))
def test_a_page_that_does_not_peek_hides_each_frame_hidden_cards(name):
    """In the page of a line, each position's picture has none of the cards hidden there, its
    caption is the move as `replay` prints it, and the cards the player never sees (on no board,
    in no caption: Impossible's face cards covered at once are named as they are placed) are
    nowhere on the page (not defined either)."""
    session = None
    for session in random_sessions(name, deals=(4,), moves=40):
        pass
    view = session.line_view()
    page = view.page()
    frames = re.findall(r'<svg [^>]*class="wl-frame.*?</svg>', page, re.S)
    assert len(frames) == len(session.steps) + 1 == len(view)
    replayed = Session(session.game, session.cards, forced=False)
    never_seen = set(CODES)
    for k, frame in enumerate(frames):
        if k:
            replayed.play(session.steps[k - 1].move)
        caption = html.unescape(re.search(r'data-caption="([^"]*)"', frame).group(1))
        assert caption.startswith(session.steps[k - 1].text() if k else "the deal")
        picture = frame.replace(re.search(r'data-caption="[^"]*"', frame).group(0), "")
        seen = codes_in(replayed.board())
        hidden = codes_in(replayed.board(peek=True)) - seen
        never_seen -= seen | codes_in(caption)  # a caption names the cards a move shows
        assert set(SHOWN.findall(picture)) == seen
        assert not codes_in(picture) & hidden
    assert never_seen and not codes_in(page) & never_seen
    assert codes_in(session.line_view(peek=True).page()) >= codes_in(session.board(peek=True))


def test_the_last_move_is_marked():
    """Nineball deal 1: 2H+7H takes two rack cards (their places dashed), 9D turns up 4H
    (outlined)."""
    game = get_game("nineball")
    session = Session(game, game.deal(1))
    first = session.scenes()[0]
    session.play("2H+7H")
    removed = last_move(first, session.scenes()[-1])
    assert not removed.cards and len(removed.left) == 2
    assert session.picture().svg.count('href="#w-left"') == 2
    session.play("9D")
    before, after = session.scenes()[-2:]
    turned = last_move(before, after)
    assert {CODES[c] for c in turned.cards} == {"4H"} and len(turned.left) == 1
    assert session.picture().svg.count('href="#w-moved"') == 1


def test_a_game_without_a_layout_is_drawn_as_its_text_board():
    """``Game.scene``'s default: a new game gets a picture of its text board (the toy game of
    tests/test_toy_game.py lays out nothing)."""
    from tests.test_toy_game import Toy
    game = Toy()
    session = Session(game, game.deal(1))
    session.play("turn")
    scene = game.scene(session.table)
    assert isinstance(scene, Scene) and scene.text == session.board()
    svg = session.picture().svg
    assert CODES[int(session.cards[0])] in svg and "[??]" in svg
    assert "<svg" in session.line_view().html()


def test_notebook_displays():
    """A session shows its position (SVG), a solved deal and a line stepped move by move
    (HTML) in a notebook; each widget has ids of its own."""
    game = get_game("nineball")
    session = Session(game, game.deal(1))
    session.play("2H+7H")
    assert session._repr_svg_().startswith("<svg") and 'data-card="5D"' in session._repr_svg_()
    result = game.solve(1)
    html = result._repr_html_()
    assert html.startswith('<div class="wl"') and html.count('data-frame=') == 7
    assert re.search(r'id="(wl-[^"]+)"', html).group(1) != re.search(
        r'id="(wl-[^"]+)"', result._repr_html_()).group(1)
    assert "<script>" in html and "http" not in html.replace("http://www.w3.org/2000/svg", "")
    assert result.to_dict().keys() == {
        "game", "seed", "deal", "variant", "solver", "outcome", "score", "moves", "nodes",
        "seconds", *game.extra_columns}


def test_the_docs_board_is_the_package_drawing():
    """docs/play.md shows a board the package drew: Nineball deal 1 after 2H+7H and 9D.
    Regenerate it with: python -c 'from tests.test_pictures import docs_board;
    docs_board().save("docs/board-nineball.svg")'."""
    assert DOCS_BOARD.read_text() == docs_board().svg + "\n"
    assert "board-nineball.svg" in (ROOT / "docs" / "play.md").read_text()


def docs_board():
    game = get_game("nineball")
    session, _ = replay_line(game, game.deal(1), ["2H+7H", "9D"])
    return session.picture()


def test_solve_and_replay_write_a_page(run_cli, tmp_path):
    """`solve --html` and `replay --html` write the page and leave stdout as it was."""
    deal = ["--game", "nineball", "--seed", "1"]
    _, plain, _ = run_cli("solve", *deal)
    code, paged, err = run_cli("solve", *deal, "--html", tmp_path / "solve.html")
    assert code == 0 and paged.splitlines()[:-1] == plain.splitlines()[:-1]  # [-1]: the time
    assert err.startswith(f"wrote {tmp_path / 'solve.html'}: the line move by move")
    page = (tmp_path / "solve.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count('data-frame=') == 7
    assert "solver thoughtful: win, score 25" in page and "6. 5D+4H" in page
    code, replayed, _ = run_cli("replay", *deal, "--moves", "2H+7H 9D", "--html",
                                tmp_path / "replay.html")
    assert code == 0 and replayed == run_cli("replay", *deal, "--moves", "2H+7H 9D")[1]
    assert (tmp_path / "replay.html").read_text().count('data-frame=') == 3
    code, as_json, _ = run_cli("solve", *deal, "--json", "--html", tmp_path / "j.html")
    assert code == 0 and as_json.count("\n") == 1 and (tmp_path / "j.html").exists()
    code, _, err = run_cli("solve", *deal, "--html", tmp_path / "no" / "such" / "dir.html")
    assert code == 2 and err.startswith("error: cannot write") and len(err.splitlines()) == 1


def test_play_show_writes_the_game_so_far(run_cli, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("2H+7H\nshow\nshow peek.html\nquit\n"))
    code, printed, _ = run_cli("play", "--game", "nineball", "--seed", "1")
    assert code == 0 and "wrote nineball-play.html: the game so far" in printed
    page = (tmp_path / "nineball-play.html").read_text()
    assert page.count('data-frame=') == 2 and "1. 2H+7H" in page
    assert not codes_in(page) & {"4H", "3H", "AD", "6H", "5H", "2D"}  # face down in the kitchen
    assert (tmp_path / "peek.html").read_text() == page
    monkeypatch.setattr(sys, "stdin", io.StringIO("show\nquit\n"))
    code, _, _ = run_cli("play", "--game", "nineball", "--seed", "1", "--peek")
    assert {"4H", "AD", "2D"} <= codes_in((tmp_path / "nineball-play.html").read_text())
