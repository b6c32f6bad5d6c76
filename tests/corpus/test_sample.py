"""A sample of real records (tests/data/ccpd, attribution in its README): imported as they are,
re-encoded and transliterated by the test, and compared with the bundled table."""

from __future__ import annotations

import codecs
import re
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pyffish
import pytest

from knockout.corpus.board import START_FEN
from knockout.corpus.bundle import ATTRIBUTION, BUNDLED, bundled_games, header
from knockout.corpus.draws import band
from knockout.corpus.importer import Imported, import_games
from knockout.corpus.names import simplified
from knockout.corpus.notation import parse_move
from knockout.corpus.replay import replay
from knockout.corpus.table import COLUMNS, GameRow, read_table, write_table
from knockout.game import Result
from knockout.points import ROUND_ROBIN, GameDetails, attacking_material_of_position

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "ccpd"
RECORDS = SAMPLE / "Dataset"
D = Decimal


@pytest.fixture(scope="module")
def sample() -> Imported:
    return import_games([RECORDS], workers=1)


class _Games:
    """The rows of an import by players (simplified; a team the sample alone cannot tell from the
    name, 江蘇徐天紅, stays in it, so a name is found at the end of what is written)."""

    def __init__(self, rows: tuple[GameRow, ...] | list[GameRow]) -> None:
        self.rows = rows

    def __getitem__(self, players: tuple[str, str]) -> list[GameRow]:
        red, black = players
        return [
            r
            for r in self.rows
            if simplified(r.red).endswith(red) and simplified(r.black).endswith(black)
        ]


def _by_players(rows: tuple[GameRow, ...] | list[GameRow]) -> _Games:
    return _Games(rows)


def test_the_sample_as_it_is(sample: Imported) -> None:
    report = sample.report
    assert (report.files, report.records, dict(report.encodings)) == (18, 18, {"big5": 18})
    assert report.redecoded_fields == 2  # Round tags in GBK
    assert report.kept == 12 and report.copies_removed == 6
    assert not report.refused
    games = _by_players(sample.rows)
    # One game filed twice, with and without the players' cities.
    (liu,) = games[("杨官璘", "刘忆慈")]
    assert len(liu.sources) == 2 and (liu.red_team, liu.black_team) == ("廣州", "杭州")
    # Filed three times; the third copy's date (1998-12-00) contradicts its event text
    # (1999年第19屆五羊杯), so it is dropped and the copy joins the dated game.
    (li_xu,) = games[("李来群", "许银川")]
    assert (li_xu.date, len(li_xu.sources)) == ("1999-01-09", 3)
    assert report.dates_contradicted == 1
    (round_7,) = games[("杨官璘", "张东禄")]
    assert round_7.round == "7"  # from a Round tag written in GBK in a Big5 file
    assert liu.round == "5"  # likewise
    (from_event,) = games[("杨官璘", "侯玉山")]
    assert (from_event.date, from_event.year, from_event.result) == ("1954-08", 1954, "1-0")
    (blitz,) = games[("吕钦", "胡荣华")]
    assert blitz.time_class == "blitz"
    (broken,) = games[("尚威", "胡荣华")]
    assert (broken.record, broken.result) == ("broken at move 35", "1/2-1/2")
    assert [r.kind for r in sample.rows].count("engine") == 1
    assert report.master["complete"] == 10 and sum(report.master.values()) == 11


def test_cases_a_to_d_on_real_final_positions(sample: Imported) -> None:
    games = _by_players(sample.rows)
    cases = {
        ("王嘉良", "胡荣华"): ("B", 68, D(0), D("2.5"), (D("0.5"), D("0.9"))),
        ("刘星", "徐天红"): ("C", 61, D(6), D(5), (D("0.9"), D("0.7"))),
        ("吕钦", "苗永鹏"): ("D", 61, D(6), D(6), (D("0.9"), D("0.9"))),
    }
    for players, (case, moves, red, black, points) in cases.items():
        (game,) = games[players]
        details = GameDetails.from_position(game.moves, game.final_fen)
        assert (band(details), game.moves, details.attack_red, details.attack_black) == (
            case,
            moves,
            red,
            black,
        )
        assert ROUND_ROBIN.points(Result.DRAW, details) == points
    # The corpus's one final position with no attacking material on either side (a Black win in
    # 36 moves): scored as a draw past 60 moves it is case A, 0.5 each.
    (bare,) = games[("郑舒潮", "周世杰")]
    assert attacking_material_of_position(bare.final_fen) == (0, 0)
    assert band(GameDetails.from_position(61, bare.final_fen)) == "A"


#: The sample's files whose Round tag is GBK bytes inside a Big5 file (seen by eye).
GBK_ROUNDS = ("楊官璘/00000637.pgn", "楊官璘/00000648.pgn")


def _text(file: Path) -> str:
    """A sample file's text, each line in the encoding it was written in."""
    lines = file.read_bytes().split(b"\n")
    gbk = file.as_posix().endswith(GBK_ROUNDS)
    return "\n".join(
        line.decode("gb18030" if gbk and line.startswith(b"[Round") else "cp950") for line in lines
    )


def _copy_sample(tmp_path: Path, name: str, change) -> Path:  # type: ignore[no-untyped-def]
    """The sample's files rewritten by ``change(text) -> bytes`` into ``tmp_path/name``."""
    out = tmp_path / name / "Dataset"
    for file in RECORDS.rglob("*.pgn"):
        target = out / file.relative_to(RECORDS)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(change(_text(file)))
    return out


def _same_games(a: Imported, b: Imported, *, names: bool = True) -> None:
    """The same games: ids, results, moves, positions, records, dates, classes."""

    def facts(row: GameRow) -> tuple[object, ...]:
        kept = replace(
            row,
            event=simplified(row.event),
            sources=(),
            red="",
            black="",
            red_team="",
            black_team="",
        )
        return (kept, simplified(row.red), simplified(row.black)) if names else (kept,)

    assert sorted(map(facts, a.rows), key=repr) == sorted(map(facts, b.rows), key=repr)


@pytest.mark.parametrize(
    ("name", "encode", "encoding"),
    [
        ("utf8", lambda t: t.encode("utf-8"), "utf-8"),
        ("bom", lambda t: codecs.BOM_UTF8 + t.encode("utf-8"), "utf-8-sig"),
        ("gb18030", lambda t: t.encode("gb18030"), "gb18030"),
    ],
)
def test_re_encoded_the_same(tmp_path: Path, sample: Imported, name, encode, encoding) -> None:  # type: ignore[no-untyped-def]
    """Each file written whole in another encoding (its GBK Round tag too)."""
    folder = _copy_sample(tmp_path, name, encode)
    again = import_games([folder], workers=1)
    assert dict(again.report.encodings) == {encoding: 18}
    assert again.report.redecoded_fields == 0
    _same_games(sample, again)


def _moves_of(text: str) -> list[str]:
    body = "\n".join(line for line in text.splitlines() if not line.startswith("["))
    return [t for t in body.split() if parse_move(t) is not None]


def _rewrite_moves(text: str, spell) -> bytes:  # type: ignore[no-untyped-def]
    """The record with its moves written by ``spell(uci moves) -> texts`` (the library's moves
    of the original replay, as far as it goes)."""
    moves = _moves_of(text)
    played = replay([parse_move(m) for m in moves])
    new = spell(list(played.uci))
    mapping = iter(new + moves[len(new) :])
    lines = []
    for line in text.splitlines():
        if line.startswith("["):
            lines.append(line)
            continue
        lines.append(" ".join(next(mapping) if parse_move(t) else t for t in line.split()))
    return "\n".join(lines).encode("utf-8")


def _wxf(uci: list[str]) -> list[str]:
    return list(
        pyffish.get_san_moves("xiangqi", START_FEN, uci, False, pyffish.NOTATION_XIANGQI_WXF)
    )


def _iccs(uci: list[str]) -> list[str]:
    out = []
    for move in uci:
        a, b = re.findall(r"[a-i]\d+", move)
        out.append(f"{a[0]}{int(a[1:]) - 1}-{b[0]}{int(b[1:]) - 1}")
    return out


_ASCII = str.maketrans("１２３４５６７８９", "123456789")
_RED_ASCII = str.maketrans("一二三四五六七八九", "123456789")


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("simplified", lambda t: simplified(t).encode("gb18030")),
        ("ascii-digits", lambda t: t.translate(_ASCII).encode("utf-8")),
        (
            "ascii-digits-both-sides",
            lambda t: re.sub(
                r"(?m)^(?!\[).*$", lambda m: m[0].translate(_ASCII).translate(_RED_ASCII), t
            ).encode("utf-8"),
        ),
        ("wxf", lambda t: _rewrite_moves(t, _wxf)),
        ("iccs", lambda t: _rewrite_moves(t, _iccs)),
    ],
)
def test_transliterated_the_same(tmp_path: Path, sample: Imported, name, change) -> None:  # type: ignore[no-untyped-def]
    folder = _copy_sample(tmp_path, name, change)
    again = import_games([folder], workers=1)
    assert not again.report.refused
    if name == "iccs":  # squares leave nothing to repair
        assert again.report.repaired_moves == 0
    _same_games(sample, again)


def test_the_sample_agrees_with_the_bundled_table(sample: Imported) -> None:
    """Each sample game is a row of the bundled table with the same replay; the table knows more
    copies of some (so another copy's event text may be the one shown). The id (players, date,
    moves) is the same except where the sample alone cannot tell a team from a name: 深圳劉星,
    江蘇徐天紅, 上海胡榮華 and 湖北苗永鵬 are split only by the whole collection, which writes
    those teams elsewhere."""
    by_source = {s: row for row in bundled_games() for s in row.sources}
    other_ids = 0
    for row in sample.rows:
        other = by_source[row.sources[0]]
        assert set(row.sources) <= set(other.sources)
        same = ("date", "moves", "final_fen", "record", "kind", "result")
        assert [getattr(row, c) for c in same] == [getattr(other, c) for c in same], row.id
        for mine, theirs in ((row.red, other.red), (row.black, other.black)):
            assert simplified(mine).endswith(simplified(theirs))
        if row.id != other.id:
            other_ids += 1
            assert (row.red, row.black) != (other.red, other.black)
    assert other_ids == 3


def test_written_and_read_back_byte_for_byte(tmp_path: Path, sample: Imported) -> None:
    for suffix in (".csv", ".csv.gz", ".csv.xz"):
        path = tmp_path / f"games{suffix}"
        write_table(path, sample.rows, header(sample.rows))
        assert read_table(path) == sorted(read_table(path), key=lambda r: (r.date or "~", r.id))
        assert {r.id for r in read_table(path)} == {r.id for r in sample.rows}
        again = tmp_path / f"again{suffix}"
        write_table(again, read_table(path), header(sample.rows))
        assert again.read_bytes() == path.read_bytes()
    text = (tmp_path / "games.csv").read_text(encoding="utf-8")
    assert text.startswith("# Games of the Chinese Chess Practical Dataset")
    assert "Creative Commons Attribution 4.0" in text


def test_the_bundled_table_says_where_it_comes_from() -> None:
    import lzma

    text = lzma.decompress(BUNDLED.read_bytes()).decode("utf-8")
    lines = text.splitlines()
    assert lines[: len(ATTRIBUTION)] == [f"# {line}" for line in ATTRIBUTION]
    assert lines[len(ATTRIBUTION)] == ",".join(COLUMNS)
