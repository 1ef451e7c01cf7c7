"""A search's own files read back: only the dataset's, through no link, checked (issue 37).

Every reader of a dataset (``sim analyze``, ``--report``, ``--plot``, ``sim export``,
``sim replay``, a resumed search) reads only files inside the dataset, through no link, and
embeds nothing else; ``search/answer.json`` is read against its shape and size, the journal
and the Optuna study are checked or rebuilt, and a finished search whose answer is gone
answers again on ``--resume``. Each problem is one located line and exit 2, never a
traceback.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from sim.search.optimize.study import closing
from tests.search.helpers import DUEL, write
from tests.test_runner import cli

BALANCED = """\
name: small_balance
scenario: duel.yaml
design: balance
parameters:
  rules.options.incapacitate_serious: {low: 0.0, high: 1.0}
target: {side: shooter, wins: 50%, of: all}
tolerance: 10%
start: 20
budget: 400
seed: 2
"""
SECRET = b"\x89PNG\r\n\x1a\n the user's own picture, outside the dataset"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One small balance search, fought once for the module."""
    from sim.search import load_search, run_search

    root = tmp_path_factory.mktemp("made")
    write(root, "duel.yaml", DUEL)
    run_search(load_search(write(root, "b.yaml", BALANCED)), root / "b", progress=False)
    return root


@pytest.fixture
def ds(made: Path, tmp_path: Path) -> Path:
    """A copy of the search's dataset (and its experiment) to spoil."""
    write(tmp_path, "duel.yaml", DUEL)
    write(tmp_path, "b.yaml", BALANCED)
    shutil.copytree(made / "b", tmp_path / "b", symlinks=True)
    return tmp_path / "b"


def one_line(capsys: Any, *argv: Any) -> str:
    """Run ``sim ARGV``: exit 2 and one line on stderr, no traceback; its message."""
    code, out, err = cli(capsys, *argv)
    lines = [x for x in err.splitlines() if x.strip() and not x.startswith("search: batch")]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, (code, out, err)
    return lines[0].split(": error: ", 1)[-1]


def outside(tmp_path: Path) -> Path:
    """A folder of the user's beside the dataset."""
    where = tmp_path / "elsewhere"
    where.mkdir(exist_ok=True)
    return where


def test_a_linked_search_folder_is_not_followed_by_any_reader(ds, tmp_path, capsys):
    """The issue's report: DS/search linked out, the answer there naming a file there."""
    away = outside(tmp_path)
    shutil.move(ds / "search", away / "search")
    answer = json.loads((away / "search" / "answer.json").read_text())
    answer["charts"] = [{"file": "search/secret.png", "title": "secret"}]
    (away / "search" / "answer.json").write_text(json.dumps(answer))
    (away / "search" / "secret.png").write_bytes(SECRET)
    os.symlink(away / "search", ds / "search")
    report = tmp_path / "r.html"
    line = one_line(capsys, "analyze", ds, "--report", report)
    assert line.startswith(f"{ds}/search: is a symbolic link; sim reads only a dataset's own")
    assert not report.exists()
    assert one_line(capsys, "analyze", ds).startswith(f"{ds}/search: is a symbolic link")
    exp = tmp_path / "b.yaml"
    assert one_line(capsys, "sweep", exp, "--out", ds, "--resume").startswith(
        f"{ds}/search: is a symbolic link"
    )


@pytest.mark.parametrize("where", ["search/balance.png", "search/answer.json"])
def test_a_linked_file_of_the_search_is_not_read(ds, tmp_path, capsys, where):
    away = outside(tmp_path) / "secret"
    away.write_bytes(SECRET)
    (ds / where).unlink()
    os.symlink(away, ds / where)
    report = tmp_path / "r.html"
    line = one_line(capsys, "analyze", ds, "--report", report)
    assert line == (
        f"{ds}/{where}: is a symbolic link; sim reads only a dataset's own files, through "
        "no link (remove the link)"
    )
    assert not report.exists()


def test_a_report_embeds_the_datasets_own_charts_only(ds, tmp_path, capsys):
    import base64

    answer = json.loads((ds / "search" / "answer.json").read_text())
    for bad in ("search/../../elsewhere/secret.png", "/etc/hostname", "manifest.json"):
        answer["charts"] = [{"file": bad, "title": "x"}]
        (ds / "search" / "answer.json").write_text(json.dumps(answer))
        line = one_line(capsys, "analyze", ds, "--report", tmp_path / "r.html")
        assert "charts[0].file: expected a PNG beside the answer, search/NAME.png" in line
    outside(tmp_path).joinpath("secret.png").write_bytes(SECRET)
    answer["charts"] = [{"file": "search/balance.png", "title": "mine"}]
    (ds / "search" / "answer.json").write_text(json.dumps(answer))
    code, _, err = cli(capsys, "analyze", ds, "--report", tmp_path / "r.html")
    assert code == 0, err
    page = (tmp_path / "r.html").read_text()
    assert base64.b64encode(SECRET).decode() not in page
    assert base64.b64encode((ds / "search" / "balance.png").read_bytes()).decode() in page


@pytest.mark.parametrize("table", ["runs", "part"])
def test_a_linked_table_is_not_read_by_analyze_export_or_replay(ds, tmp_path, capsys, table):
    away = outside(tmp_path)
    if table == "runs":
        shutil.move(ds / "runs", away / "runs")
        os.symlink(away / "runs", ds / "runs")
    else:
        part = sorted((ds / "runs").glob("part-*.parquet"))[0]
        shutil.move(part, away / part.name)
        os.symlink(away / part.name, part)
    for argv in (
        ("analyze", ds),
        ("analyze", ds, "--plot", tmp_path / "p.png"),
        ("export", ds, "--out", tmp_path / "x"),
        ("replay", ds, "--run", 0),
    ):
        line = one_line(capsys, *argv)
        assert "symbolic link" in line, (argv, line)


def spoil(ds: Path, change: Any) -> None:
    """Write the answer again, changed by ``change(answer)`` (which returns the new one)."""
    path = ds / "search" / "answer.json"
    doc = change(json.loads(path.read_text()))
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=1))


def _set(key: str, value: Any) -> Any:
    return lambda a: {**a, key: value}


def _table(**changes: Any) -> Any:
    return lambda a: {**a, "tables": [{**a["tables"][0], **changes}, *a["tables"][1:]]}


DAMAGE = {
    "tables as a mapping": (_set("tables", {"t": 1}), "tables: expected a list, got an object"),
    "a table without a title": (
        lambda a: {**a, "tables": [{k: v for k, v in a["tables"][0].items() if k != "title"}]},
        "tables[0]: no 'title'",
    ),
    "charts as a list of names": (
        _set("charts", ["balance.png"]),
        "charts[0]: expected an object of file, title, got text",
    ),
    "ragged rows": (
        lambda a: _table(rows=[*a["tables"][0]["rows"][:1], ["1"]])(a),
        "tables[0].rows[1]: 1 cells under",
    ),
    "a number where text belongs": (
        lambda a: _table(rows=[[5, *a["tables"][0]["rows"][0][1:]]])(a),
        "tables[0].rows[0][0]: expected text, got the number 5",
    ),
    "lines as one string": (_set("lines", "the answer"), "lines: expected a list, got text"),
    "exit as text": (_set("exit", "0"), 'exit: expected 0 or 1, got "0"'),
    "an unknown key": (_set("verdict", "yes"), "verdict: unknown key"),
    "a 5,000-digit number": (
        lambda a: json.dumps({**a, "data": {"n": 0}}, indent=1).replace(
            '"n": 0', '"n": ' + "9" * 5000
        ),
        "a number of 5,000 digits",
    ),
    "arrays nested 100,000 deep": (
        lambda a: json.dumps({**a, "data": {"x": 0}}, indent=1).replace(
            '"x": 0', '"x": ' + "[" * 100_000 + "]" * 100_000
        ),
        "nested more than 32 deep",
    ),
    "not JSON": (lambda a: "{\n" + json.dumps(a)[1:-3], "not valid JSON"),
    "not an object": (lambda a: [a], "the answer: expected an object, got a list"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_answer_is_one_located_line_for_analyze_and_report(ds, tmp_path, capsys, damage):
    change, message = DAMAGE[damage]
    spoil(ds, change)
    path = ds / "search" / "answer.json"
    for argv in (("analyze", ds), ("analyze", ds, "--report", tmp_path / "r.html")):
        line = one_line(capsys, *argv)
        assert line.startswith(f"{path}:") and message in line, (damage, line)
        at = line.removeprefix(f"{path}:").split(":", 1)[0]
        assert at.isdigit(), line  # located: FILE:LINE: ...
        assert line.endswith(f"b.yaml --out {ds} --resume writes it again"), line
    assert not (tmp_path / "r.html").exists()


def test_the_located_line_is_the_damaged_ones(ds, capsys):
    spoil(ds, _table(title=7))
    lines = (ds / "search" / "answer.json").read_text().splitlines()
    line = one_line(capsys, "analyze", ds)
    at = int(line.split(".json:", 1)[1].split(":", 1)[0])
    assert lines[at - 1].strip() == '"title": 7', (at, lines[at - 1])


def test_an_answer_over_1_mb_is_refused_unread(ds, capsys):
    spoil(ds, lambda a: {**a, "data": {"pad": "x" * (1 << 20)}})
    line = one_line(capsys, "analyze", ds)
    assert line.startswith(f"{ds}/search/answer.json: 1.0 MB; the limit is 1.0 MB"), line


OPTIMIZED = """\
name: small_optimize
scenario: duel.yaml
design: optimize
parameters:
  sides.shooter.fighters[0].deathwish.weapon: {choices: [Glock 20, AKM, S&W 500]}
  rules.options.incapacitate_serious: {choices: [0.25, 0.75]}
objective: {side: shooter, wins: max}
budget: 300
replicates: 10
parallel: 4
confirm: {top: 2, replicates: 30}
seed: 3
"""


@pytest.fixture(scope="module")
def made_optimize(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One small optimize search, fought once for the module."""
    from sim.search import load_search, run_search

    root = tmp_path_factory.mktemp("made_optimize")
    write(root, "duel.yaml", DUEL)
    run_search(load_search(write(root, "o.yaml", OPTIMIZED)), root / "o", progress=False)
    return root


@pytest.fixture
def ods(made_optimize: Path, tmp_path: Path) -> Path:
    write(tmp_path, "duel.yaml", DUEL)
    write(tmp_path, "o.yaml", OPTIMIZED)
    shutil.copytree(made_optimize / "o", tmp_path / "o", symlinks=True)
    return tmp_path / "o"


def answer_of(root: Path) -> dict[str, Any]:
    return json.loads((root / "search" / "answer.json").read_text())


@pytest.mark.parametrize("how", ["gone", "damaged"])
def test_a_finished_search_whose_answer_is_lost_answers_again_on_resume(ds, capsys, how):
    before = answer_of(ds)
    chart = (ds / "search" / "balance.png").read_bytes()
    if how == "gone":
        (ds / "search" / "answer.json").unlink()
    else:
        spoil(ds, _set("lines", "edited"))
    exp = ds.parent / "b.yaml"
    line = one_line(capsys, "sweep", exp, "--out", ds)
    assert line.endswith("--resume writes it again from its battles"), line
    code, out, err = cli(capsys, "sweep", exp, "--out", ds, "--resume")
    assert code == before["exit"] and "Traceback" not in err, err
    assert "the search had ended" in out and before["lines"][1] in out
    assert answer_of(ds) == before
    assert (ds / "search" / "balance.png").read_bytes() == chart


def journal_of(root: Path) -> dict[str, Any]:
    return json.loads((root / "search" / "journal.json").read_text())


def unfinish(root: Path, change: Any) -> None:
    """The journal changed by ``change`` (in place), the search made unfinished again."""
    journal = journal_of(root)
    journal.pop("finished")
    change(journal)
    (root / "search" / "journal.json").write_text(json.dumps(journal, indent=1))
    (root / "search" / "answer.json").unlink()


JOURNALS = {
    "a batch entry that is text": (
        lambda j: j["batches"].__setitem__(1, "batch one"),
        "batches[1]: expected an object: a batch of the search",
    ),
    "a stop that is text": (
        lambda j: j["batches"][0].__setitem__("stop", "80"),
        "batches[0].stop: expected a whole number",
    ),
    "no batches": (lambda j: j.pop("batches"), "batches: expected a list"),
}
OPTUNA_JOURNALS = {
    "a trial's choice that no longer exists": (
        lambda j: j["batches"][0]["note"]["trials"][1]["params"].__setitem__(
            "sides.shooter.fighters[0].deathwish.weapon", "Colt Python"
        ),
        "batches[0].note.trials[1].params.sides.shooter.fighters[0].deathwish.weapon: "
        "'Colt Python' is not one of its choices",
    ),
    "a note without trials": (
        lambda j: j["batches"][0]["note"].pop("trials"),
        "batches[0].note.trials: expected the batch's 4 trials",
    ),
    "a trial numbered otherwise": (
        lambda j: j["batches"][1]["note"]["trials"][0].__setitem__("number", 0),
        "batches[1].note.trials[0].number: expected 4",
    ),
}


@pytest.mark.parametrize("damage", sorted(JOURNALS) + sorted(OPTUNA_JOURNALS))
def test_an_edited_journal_is_one_located_line_on_resume(ds, ods, capsys, damage):
    root, exp = (ds, "b.yaml") if damage in JOURNALS else (ods, "o.yaml")
    change, message = {**JOURNALS, **OPTUNA_JOURNALS}[damage]
    unfinish(root, change)
    line = one_line(capsys, "sweep", root.parent / exp, "--out", root, "--resume")
    path = root / "search" / "journal.json"
    assert line.startswith(f"{path}:") and f": {message}" in line, line
    assert line.split(".json:", 1)[1].split(":", 1)[0].isdigit(), line
    assert line.endswith("the journal is damaged: search again into another --out")


@pytest.mark.parametrize("how", ["garbage", "another study", "a folder"])
def test_a_damaged_or_replaced_study_is_built_again_from_the_journal(ods, tmp_path, capsys, how):
    import optuna

    before = answer_of(ods)
    db = ods / "search" / "study.db"
    if how == "garbage":
        db.write_bytes(b"not a database at all\n" * 100)
    elif how == "another study":
        other = tmp_path / "other"
        other.mkdir()
        write(other, "duel.yaml", DUEL)
        # another search's study, of as many trials as the first batch: same count, others
        text = OPTIMIZED.replace("seed: 3", "seed: 4").replace("budget: 300", "budget: 160")
        exp = write(other, "o.yaml", text)
        assert cli(capsys, "sweep", exp, "--out", other / "o")[0] == 0
        shutil.copy(other / "o" / "search" / "study.db", db)
    else:
        db.unlink()
        db.mkdir()
    unfinish(ods, lambda j: None)
    if how == "a folder":  # not the search's to delete: one line, and what to do
        line = one_line(capsys, "sweep", ods.parent / "o.yaml", "--out", ods, "--resume")
        assert line == (
            f"{db}: a folder, not a file of the dataset; remove it, and the search builds its "
            "study again from the journal"
        )
        return
    code, out, err = cli(capsys, "sweep", ods.parent / "o.yaml", "--out", ods, "--resume")
    assert code == 0 and "Traceback" not in err, err
    assert answer_of(ods) == before
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with closing(f"sqlite:///{db}") as storage:  # Python 3.13 warns if left
        fought = [
            (t.number, t.params)
            for t in optuna.load_study(study_name="search", storage=storage).trials
        ]
    trials = [
        t for b in journal_of(ods)["batches"] if b["stage"] == "search" for t in b["note"]["trials"]
    ]
    assert fought == [(n["number"], n["params"]) for n in trials]


def test_a_value_fought_reads_the_same_in_the_answer_and_in_the_tables(ds, capsys):
    """One value, one precision: 0.147382 was 0.1474 in the answer and 0.147382 below it."""
    code, out, _ = cli(capsys, "analyze", ds)
    assert code == 0
    answer, tables = out.split("\nOutcomes:", 1)
    values = [p["x"] for p in answer_of(ds)["data"]["groups"][0]["points"]]
    assert any(round(v, 2) != v for v in values)  # a value fought between the coarse ones
    for v in values:
        shown = f"{v:g}"
        assert f" {shown}  " in answer and f" {shown}  " in tables, (shown, out)
