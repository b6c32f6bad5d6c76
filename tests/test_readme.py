"""The README and docs as a new user meets them in a fresh clone: every link leads to a file in
the repository, and the Python example runs when saved as a script."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
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


@pytest.mark.system
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


def test_the_scenario_reference_loads(tmp_path: Path) -> None:
    """The scenario reference (docs/scenarios.md) is a valid scenario as printed."""
    from knockout.io.scenario import load_scenario

    page = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    (block,) = re.findall(r'```toml\n(name = "Example".*?)```', page, re.S)
    path = tmp_path / "example.toml"
    path.write_text(block, encoding="utf-8")
    scenario = load_scenario(path)
    assert [p.name for p in scenario.players] == ["Alpha", "Beta"]
    assert len(scenario.played) == 1


#: The pages whose shell blocks a newcomer types as written: the README and the pages its
#: examples moved to.
COMMAND_PAGES = [
    ROOT / "README.md",
    ROOT / "docs" / "commands.md",
    ROOT / "docs" / "rule-designers.md",
]


def _readme_commands() -> list[str]:
    """Every ``knockout`` command of those pages' shell blocks, as a reader would type it."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in COMMAND_PAGES)
    commands = []
    for kind, block in re.findall(r"```(sh|console)\n(.*?)```", text, re.S):
        for line in block.splitlines():
            text = line.removeprefix("$ ") if kind == "console" else line
            if kind == "console" and not line.startswith("$ "):
                continue
            if text.startswith("knockout "):
                commands.append(text.split("  #", 1)[0].strip())
    return commands


def test_the_readme_is_short_and_says_how_to_start_in_chinese_on_its_first_screen() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    first_screen = "\n".join(readme.splitlines()[:24])
    assert "中文" in first_screen and "make demo" in first_screen


def test_the_docs_index_lists_every_page() -> None:
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    listed = set(LINK.findall(index))
    pages = {p.name for p in (ROOT / "docs").glob("*.md") if p.name != "index.md"}
    assert pages <= listed, sorted(pages - listed)


def test_the_readme_says_where_the_program_is_before_its_first_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.index("\nknockout ")
    assert "source .venv/bin/activate" in readme[:first]
    opening = readme[: readme.index("\n## ")]  # what a newcomer reads before the first heading
    assert ".venv/bin/knockout" in opening and "not onto your PATH" in opening


@pytest.mark.system
def test_make_demo_says_where_the_program_is() -> None:
    """``make demo`` ends by saying how to reach the program it installed."""
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    result = subprocess.run(
        [make, "-n", "-s", "demo"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "source .venv/bin/activate" in result.stdout
    assert ".venv/bin/knockout" in result.stdout


@pytest.mark.slow
@pytest.mark.system
def test_every_readme_command_runs_as_written_after_activating(tmp_path: Path) -> None:
    """What a newcomer types after ``make demo`` and ``source .venv/bin/activate``: each command
    runs, in a folder holding the bundled scenarios (so that outputs land there, not in docs/)."""
    activate = Path(sys.prefix) / "bin" / "activate"
    if not activate.exists():
        pytest.skip("the tests do not run in a virtual environment")
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    commands = _readme_commands()
    assert len(commands) >= 10

    def run(command: str) -> tuple[str, subprocess.CompletedProcess[str]]:
        done = subprocess.run(
            ["bash", "-c", f"source {shlex.quote(str(activate))} && {command}"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            env={k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
            | {"PATH": "/usr/bin:/bin"},
        )
        return command, done

    # an organiser's commands build on each other (one event file): one job, in order
    events = [c for c in commands if c.startswith("knockout event ")]
    jobs = [c for c in commands if c not in events] + [" && ".join(events)] * bool(events)
    slowest_first = sorted(jobs, key=lambda c: "--live" not in c)  # --live mostly waits
    with ThreadPoolExecutor(max_workers=2) as pool:
        for command, done in pool.map(run, slowest_first):
            assert done.returncode == 0, f"{command}: {done.stderr[-2000:]}"
            assert "Traceback" not in done.stderr, command


def test_one_story_for_the_official_playoffs_decider() -> None:
    """The code gives the official playoff's decider the ``choice`` rule (the lot names who
    chooses the colours); the docs' presets table and the bundled scenario say the same."""
    from knockout.rules.book.formats import ColourRule
    from knockout.rules.book.presets import FORMATS

    decider = FORMATS["official-playoff"].stage("decider")
    assert decider.colours is ColourRule.CHOICE and decider.chooser == "lot"
    docs = (ROOT / "docs" / "rules-and-model.md").read_text(encoding="utf-8")
    (row,) = [line for line in docs.splitlines() if line.startswith("| `official-playoff` |")]
    told = row.split("decider:", 1)[1]
    assert "colours by lot" not in told and "the lot's winner chooses the colours" in told
    comments = (ROOT / "scenarios" / "official-playoff.toml").read_text(encoding="utf-8")
    assert "colours by lot" not in comments
    assert "the lot's winner chooses the colours" in " ".join(comments.replace("#", "").split())
    listed = docs.split("## Formats are data", 1)[1].split("\n\n", 2)[1]
    assert all(f"`{rule.value}`" in listed for rule in ColourRule), listed
