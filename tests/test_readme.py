"""The README and docs as a new user meets them in a fresh clone: every link leads to a file in
the repository, and the Python example runs when saved as a script."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_stay_in_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or an anchor on the page
        path = (page.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{page.name} links outside the repository: {target}"
        assert path.exists(), f"{page.name} links to a missing file: {target}"


def test_readme_python_example_runs_as_a_script(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert len(blocks) == 1
    script = tmp_path / "example.py"
    script.write_text(blocks[0], encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "王天一" in result.stdout


def test_readme_scenario_example_loads(tmp_path: Path) -> None:
    """The README's scenario reference is a valid scenario as printed."""
    from knockout.io.scenario import load_scenario

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r'```toml\n(name = "Example".*?)```', readme, re.S)
    path = tmp_path / "example.toml"
    path.write_text(block, encoding="utf-8")
    scenario = load_scenario(path)
    assert [p.name for p in scenario.players] == ["Alpha", "Beta"]
    assert len(scenario.played) == 1
