"""The whole archive of the Chinese Chess Practical Dataset's game records, imported, equals the
bundled table byte for byte. The archive is not part of the repository: the test runs where it
lies beside the repository (``../shared/data/ccpd``), and is skipped elsewhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knockout.corpus.bundle import BUNDLED
from knockout.program import app

ARCHIVE = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "ccpd" / "games.tar.xz"


@pytest.mark.slow
@pytest.mark.system
@pytest.mark.skipif(
    not ARCHIVE.exists(), reason="the dataset's archive is not beside the repository"
)
def test_the_archive_imports_to_the_bundled_table(tmp_path: Path) -> None:
    out = tmp_path / "games.csv.xz"
    result = CliRunner().invoke(app, ["games", "import", str(ARCHIVE), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["records_replayed"]["master_complete_share"] >= 0.90
    assert report["files"]["read"] == report["records"] == 53_893
    games, refused = report["games"], report["refused"]["total"]
    # every record is kept, a copy of one kept, or refused (with its line in the report)
    assert games["kept"] + games["copies_removed"] + refused == 53_893
    assert refused == len(report["refused"]["lines"])
    assert out.read_bytes() == BUNDLED.read_bytes()
