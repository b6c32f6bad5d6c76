"""Reading records: encodings, notations, dates, rounds, names from event text, time classes."""

from __future__ import annotations

import codecs

import pytest

from knockout.corpus.encoding import decode_field, decode_file
from knockout.corpus.events import event_players, event_round, event_year, parse_date
from knockout.corpus.names import NameBook, Player
from knockout.corpus.notation import MoveText, canonical, parse_move, spelling
from knockout.corpus.pgn import parse_pgn
from knockout.corpus.timeclass import fastest, time_class

RECORD = (
    '[Event "全國象棋個人錦標賽 順炮局"]\n[Round ""]\n[Red "煤礦吳吟輝"]\n[Black "河北李來群"]\n'
    '[Result "0-1"]\n\n1. 炮二平五 炮８平５\n2. 馬二進三 馬８進７\n0-1\n'
)


@pytest.mark.parametrize(
    ("encode", "name"),
    [
        (lambda t: t.encode("cp950"), "big5"),
        (lambda t: t.encode("gb18030"), "gb18030"),
        (lambda t: t.encode("utf-8"), "utf-8"),
        (lambda t: codecs.BOM_UTF8 + t.encode("utf-8"), "utf-8-sig"),
    ],
)
def test_each_encoding_is_read_from_the_content(encode, name) -> None:  # type: ignore[no-untyped-def]
    decoded = decode_file(encode(RECORD))
    assert decoded is not None
    assert decoded.encoding == name
    assert "河北李來群" in decoded.text


def test_simplified_text_in_gb18030_is_read_as_gb18030_not_big5() -> None:
    """GB18030 bytes of simplified text also decode as Big5 (into other characters); the
    record's words decide."""
    text = '[Result "1-0"]\n1. 炮二平五 炮８平５ 2. 车一平二 马８进７ 3. 兵七进一 卒７进１ 1-0\n'
    data = text.encode("gb18030")
    data.decode("cp950")  # Big5 reads it without an error...
    decoded = decode_file(data)
    assert decoded is not None and decoded.encoding == "gb18030"  # ...but it is not Big5


def test_a_file_no_encoding_reads_is_refused_not_guessed() -> None:
    assert decode_file(bytes(range(0x80, 0x100)) * 3) is None
    assert decode_file(b"\xff\xfe\x00\x00garbage") is None


def test_a_tag_in_another_encoding_than_its_file() -> None:
    """Seen in the archive: a Big5 record whose Round tag was written in GBK (第07轮)."""
    data = RECORD.replace('[Round ""]', '[Round "ROUND"]').encode("cp950")
    data = data.replace(b"ROUND", "第07轮".encode("gb18030"))
    game = parse_pgn(data).games[0]
    assert game.tags["Round"] == "第07轮"
    assert game.redecoded == ("Round",)
    assert game.tags["Red"] == "煤礦吳吟輝"  # the file's own encoding elsewhere
    assert decode_field("劉世鎮".encode("cp950"), "big5") == ("劉世鎮", False)


def test_pgn_comments_variations_numbers_and_run_together_moves() -> None:
    text = (
        '[Result "1/2-1/2"]\n1.炮二平五 {中炮} 馬８進７ (1... 炮８平５ 2. 馬二進三) '
        "2. 馬二進三$1 車９平８; 屏風馬\n3.車一平二卒７進１ 1/2-1/2"
    )
    game = parse_pgn(text.encode("utf-8")).games[0]
    assert game.moves == ("炮二平五", "馬８進７", "馬二進三", "車９平８", "車一平二", "卒７進１")
    assert game.result == "1/2-1/2"


def test_several_games_in_one_file() -> None:
    two = (RECORD + RECORD.replace("0-1", "1-0")).encode("utf-8")
    games = parse_pgn(two).games
    assert [g.result for g in games] == ["0-1", "1-0"]
    assert [g.tags["Result"] for g in games] == ["0-1", "1-0"]


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (
            ("車二進一", "车二进一", "车2进1", "俥二進一", "R2+1", "r2+1"),
            MoveText("r", 2, None, "+", 1),
        ),
        (("馬８進７", "马8进7", "H8+7", "N8+7"), MoveText("n", 8, None, "+", 7)),
        (("炮二平五", "砲二平五", "包2平5", "C2.5", "C2=5"), MoveText("c", 2, None, "=", 5)),
        (("前車進一", "前车进一", "+R+1", "R++1"), MoveText("r", None, 0, "+", 1)),
        (("後炮平四", "后炮平4", "-C.4", "C-=4"), MoveText("c", None, -1, "=", 4)),
        (("中兵平四",), MoveText("p", None, 1, "=", 4)),
        (("二兵平四",), MoveText("p", None, 1, "=", 4)),
        (("前兵三平四",), MoveText("p", 3, 0, "=", 4)),
        (("相三進五", "象3进5", "E3+5", "B3+5"), MoveText("b", 3, None, "+", 5)),
        (("帥五平四", "将5平4", "K5.4"), MoveText("k", 5, None, "=", 4)),
    ],
)
def test_notations_read_the_same(texts: tuple[str, ...], expected: MoveText) -> None:
    for text in texts:
        assert parse_move(text) == expected, text
    assert len({spelling(t) for t in texts}) == 1


def test_wxf_names_the_file_of_three_pawns() -> None:
    """pyffish writes the second of three pawns on file 9 moving across to 8 as ``29=8``."""
    assert parse_move("29=8") == MoveText("p", 9, 1, "=", 8)


def test_iccs_names_squares() -> None:
    move = parse_move("h2-e2")
    assert move is not None and move.squares == ((7, 2), (4, 2))
    assert parse_move("H2E2") == move
    assert canonical(move) == "h2e2"


@pytest.mark.parametrize(
    "text", ["", "車", "車二進", "車二進十", "車二跳一", "前前進一", "Z2+1", "h2-j2"]
)
def test_text_that_is_no_move(text: str) -> None:
    assert parse_move(text) is None


def test_dates_years_and_rounds() -> None:
    assert parse_date("1958-11-24") == "1958-11-24"
    assert parse_date("1982年5月6日") == "1982-05-06"
    assert parse_date("56。12。26") == "1956-12-26"
    assert parse_date("2000-13-01") == ""
    assert event_year("", "19630000楊官璘勝朱永康") == 1963
    assert event_year("", "第9屆世錦賽男子組") is None
    assert event_round("", "2009年第一屆全國智力運動會象棋男子團體賽第十二輪") == "12"
    assert event_round("菴01謫", "") == ""  # a garbled tag is no round


def test_players_from_the_event_text() -> None:
    assert event_players("張雄飛先負楊官璘(1955.5於北京)") == ("張雄飛", "楊官璘")
    assert event_players("上海 歐陽琦琳 (紅先負) 江蘇 張國鳳") == ("上海 歐陽琦琳", "江蘇 張國鳳")
    assert event_players("中炮過河車互進七兵對屏風馬平炮兌車") is None


def test_names_split_teams_and_merge_scripts() -> None:
    book = NameBook(
        [
            ("廣東 呂欽", ""),
            ("廣東呂欽", ""),
            ("吕钦", ""),
            ("呂欽", ""),
            ("黑龍江 王有盛", ""),
            ("黑龍江王有盛", ""),
            ("洪  智", ""),
            ("洪智", "湖北"),
            ("歐陽琦琳", ""),
            ("TEMPELMANN Claus", ""),
            ("德國 Hollanth Karsten", ""),
            ("安徽 鍾濤 (紅先", ""),
        ]
    )
    assert book.read("TEMPELMANN Claus") == Player("", "TEMPELMANN Claus")
    assert book.read("德國 Hollanth Karsten") == Player("德國", "Hollanth Karsten")
    assert book.read("安徽 鍾濤 (紅先") == Player("安徽", "鍾濤")
    assert book.read("廣東呂欽").team == "廣東"
    assert book.player("吕钦").name == "呂欽"  # the form the collection writes most
    assert book.read("黑龍江王有盛") == book.read("黑龍江 王有盛")
    assert book.read("洪  智").name == "洪智" and book.read("洪  智").team == ""
    assert book.read("洪智", "湖北").team == "湖北"
    assert book.read("歐陽琦琳").team == ""  # no team 歐陽 is written anywhere
    assert book.key("廣東 呂欽") == book.key("吕钦") == "吕钦"
    merges = dict(book.merges())
    assert merges["呂欽"] == ("吕钦", "呂欽", "廣東 呂欽", "廣東呂欽")
    assert book.splits() == 6


def test_time_class_markers() -> None:
    assert time_class("2004年第二屆“嘉周杯”象棋電視快棋賽") == "rapid"
    assert time_class("2009年“磐安偉業杯”全國象棋精英賽第三輪加快第2局") == "rapid"
    assert time_class("第2場加賽超快棋") == "blitz"
    assert time_class("銀荔杯加賽 中炮") == "tiebreak"
    assert time_class("全國象棋個人錦標賽") == "unknown"
    assert time_class("全國象棋個人錦標賽", classical_events=["全国象棋个人锦标赛"]) == "classical"
    assert fastest(["unknown", "tiebreak", "rapid"]) == "rapid"
    assert fastest([]) == "unknown"
