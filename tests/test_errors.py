from sim.errors import SimError, did_you_mean, unknown


def test_did_you_mean_ignores_case():
    assert did_you_mean("glok 18", ["Glock 18", "M16"]) == "; did you mean 'Glock 18'?"


def test_no_suggestion_when_nothing_is_close():
    assert did_you_mean("zzz", ["Glock 18", "M16"]) == ""


def test_unknown_lists_choices_when_nothing_is_close():
    err = unknown("weapon", "zzz", ["Glock 18", "M16"])
    assert isinstance(err, SimError)
    assert str(err) == "unknown weapon 'zzz'; known: 'Glock 18', 'M16'"
