"""sim odds dice: any dice expression, exact through icepool; --check and --plot for any table."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from sim.dice import generator
from sim.errors import SimError
from sim.odds import dicexpr
from tests.test_cli_frames import assert_picture
from tests.test_cli_run import run


def brute(terms: list[tuple[int, int, str, int, str, int]], sign: tuple[int, ...]) -> Counter:
    """Every face combination of small terms (count, sides, keep, k, op, target), by hand."""
    spaces = [itertools.product(range(1, s + 1), repeat=n) for n, s, *_ in terms]
    out: Counter = Counter()
    for combo in itertools.product(*spaces):
        total = 0
        for (n, _s, keep, k, op, t), faces, sg in zip(terms, combo, sign, strict=True):
            kept = sorted(faces)
            if keep == "kh":
                kept = kept[n - k :]
            elif keep == "kl":
                kept = kept[:k]
            elif keep == "dl":
                kept = kept[k:]
            value = sum(1 for f in kept if f >= t) if op == ">=" else sum(kept)
            total += sg * value
        out[total] += 1
    return out


@pytest.mark.parametrize(
    ("text", "terms", "sign"),
    [
        ("4d6kh3", [(4, 6, "kh", 3, "", 0)], (1,)),
        ("3d4dl1", [(3, 4, "dl", 1, "", 0)], (1,)),
        ("2d20kl1", [(2, 20, "kl", 1, "", 0)], (1,)),
        ("5d6>=5", [(5, 6, "", 0, ">=", 5)], (1,)),
        ("3d6kh2>=4", [(3, 6, "kh", 2, ">=", 4)], (1,)),
        ("d6-d4+2", [(1, 6, "", 0, "", 0), (1, 4, "", 0, "", 0)], (1, -1)),
    ],
)
def test_exact_odds_equal_counting_every_face(text, terms, sign):
    counts = brute(terms, sign)
    total = sum(counts.values())
    shift = 2 if text.endswith("+2") else 0
    expected = {v + shift: Fraction(c, total) for v, c in counts.items()}
    assert dicexpr.exact(dicexpr.parse(text)) == dict(sorted(expected.items()))


def test_known_figures():
    dist = dicexpr.exact(dicexpr.parse("4d6kh3"))
    assert sum(k * p for k, p in dist.items()) == Fraction(15869, 1296)
    assert dist[18] == Fraction(21, 1296) and dist[3] == Fraction(1, 1296)
    opposed = dicexpr.exact(dicexpr.parse("d8 vs d8"))
    assert opposed == {
        "first higher": Fraction(7, 16),
        "tie": Fraction(1, 8),
        "second higher": Fraction(7, 16),
    }
    # a D6 code without sides: 4D+1 is four six-sided dice and a pip
    assert dicexpr.exact(dicexpr.parse("4D+1")) == dicexpr.exact(dicexpr.parse("4d6+1"))


def test_exploding_dice_add_a_die_on_the_highest_face_up_to_the_depth():
    dist = dicexpr.exact(dicexpr.parse("d4!"))
    assert [dist.get(v, 0) for v in (1, 3, 5, 7, 8, 9)] == [
        Fraction(1, 4),
        Fraction(1, 4),
        Fraction(1, 16),
        Fraction(1, 16),
        0,
        Fraction(1, 64),
    ]
    top = 4 * (dicexpr.EXPLODE_DEPTH + 1)
    assert max(dist) == top and dist[top] == Fraction(1, 4 ** (dicexpr.EXPLODE_DEPTH + 1))
    assert sum(dist.values()) == 1


def test_simulated_rolls_through_roll_faces_agree_with_the_exact_odds():
    for text in ("4d6kh3", "3d6!", "6d10>=8", "2d6+3 vs 2d6", "3d6dh1-2"):
        expr = dicexpr.parse(text)
        exact = dicexpr.exact(expr)
        n = 40_000
        rolled = Counter(dicexpr.simulate(expr, generator(7), n))
        assert set(rolled) <= set(exact), text
        for value, p in exact.items():
            sd = (float(p) * (1 - float(p)) / n) ** 0.5
            assert abs(rolled[value] / n - float(p)) <= 4.5 * sd + 2 / n, (text, value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty dice expression; e.g. 4d6kh3, 3d6!, 8d6>=5, 2d6+3 vs 2d6"),
        ("4q6", "dice expression '4q6': cannot read 'q6'"),
        ("2d6 vs", "dice expression '2d6 vs': ends where a term belongs"),
        ("d6 vs d6 vs d6", "dice expression 'd6 vs d6 vs d6': 'vs' joins exactly two sums"),
        ("2d6 3", "dice expression '2d6 3': a + or - belongs before '3'"),
        ("+d6", "dice expression '+d6': '+' where a term belongs"),
        ("0d6", "dice expression '0d6': 1..100 dice in a term, got 0"),
        ("d1", "dice expression 'd1': dice of 2..1000 sides, got 1"),
        ("3d6dh3", "dice expression '3d6dh3': 3d6dh3 keeps no dice"),
    ],
)
def test_bad_expressions_say_where(text, message):
    with pytest.raises(SimError) as err:
        dicexpr.parse(text)
    assert str(err.value) == message


def test_cli_prints_the_exact_table_and_the_check_in_one_line(capsys):
    code, out, err = run(capsys, "odds", "dice", "d8 vs d8", "--check", "20000")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "d8 vs d8: 1d8 against 1d8 (exact, icepool)"
    assert "first higher   43.75%" in out
    assert "simulated: 20,000 rolls (seed 1) through sim.dice.roll_faces" in out
    last = lines[-1]
    assert last.startswith("P(first higher): exact 43.75%, simulated ") and last.endswith("± 0.7")
    code, out, _ = run(capsys, "odds", "dice", "4d6kh3")
    assert out.splitlines()[:2] == [
        "4d6kh3: 4d6, keep the highest 3 (exact, icepool)",
        "mean 12.24, sd 2.847",
    ]
    assert "   18   1.62%        1.62%" in out


@pytest.mark.parametrize(
    ("argv", "via"),
    [
        (["deathwish", "--weapon", "M16", "--armor", "1"], "sim.rules.deathwish.roll_damage"),
        (["wargame", "--dice", "3", "--armor", "4"], "sim.rules.wargame.roll_damage"),
        (["d6", "--damage", "4D", "--body", "3D"], "sim.rules.d6.roll_damage_vs_body"),
        (["2w2p", "--attack", "4", "--defence", "2"], "sim.rules.twowp.roll_exchange"),
        (["dice", "3d6!"], "sim.dice.roll_faces"),
    ],
)
def test_every_odds_table_checks_through_the_battles_code_and_plots(capsys, tmp_path, argv, via):
    png = tmp_path / "odds.png"
    code, out, err = run(capsys, "odds", *argv, "--check", "3000", "--seed", "5", "--plot", png)
    assert code == 0, err
    assert f"simulated: 3,000 rolls (seed 5) through {via}, the battles' own code" in out
    assert " outcomes outside their 95% band " in out
    assert err == f"plot: {png}\n"
    assert_picture(png)


def test_the_whole_deathwish_table_plots_but_checks_only_one_attack(capsys, tmp_path):
    png = tmp_path / "table.png"
    assert run(capsys, "odds", "deathwish", "--plot", png)[0] == 0
    assert_picture(png)
    code, out, err = run(capsys, "odds", "deathwish", "--check", "100")
    assert (code, out) == (2, "")
    assert err == (
        "sim odds: error: --check needs one attack: give --weapon or --penetration/--lethality\n"
    )
    code, _, err = run(capsys, "odds", "dice", "d6", "--check", "0")
    assert err == "sim odds: error: --check must be 1..10,000,000 rolls, got 0\n"


def test_the_check_in_json_is_one_object_and_csv_refuses_it(capsys):
    import json

    code, out, _ = run(capsys, "odds", "dice", "2d6", "--check", "500", "--format", "json")
    data = json.loads(out)
    assert (code, data["odds"]["mean"], data["check"]["rolls"]) == (0, 7.0, 500)
    assert [r["outcome"] for r in data["check"]["rows"]] == [str(v) for v in range(2, 13)]
    code, out, err = run(
        capsys, "odds", "wargame", "--dice", "2", "--check", "9", "--format", "csv"
    )
    assert (code, out) == (2, "")
    assert err == "sim odds: error: --check prints a table or JSON: use --format table or json\n"


def test_the_check_bands_keep_their_second_digit():
    from sim.cli.text import check_text

    rows = [
        {"outcome": o, "exact": 0.5, "simulated": 0.5, "band": b}
        for o, b in (("a", 0.0031), ("b", 0.0020), ("c", 0.31), ("d", 0.00004))
    ]
    check = {"rows": rows, "rolls": 10, "seed": 1, "via": "x", "outside": 0, "impossible": []}
    table = check_text(check, "text").splitlines()[2:8]
    assert [line.split()[-1] for line in table[2:]] == ["0.31", "0.20", "31", "0.0040"]
