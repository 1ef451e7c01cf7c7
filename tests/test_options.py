"""sim.options: the frame's option groups and the option machinery, one import away."""

import pytest

import sim.aftermath
import sim.battle.battle
import sim.options
import sim.rules.common
import sim.run.campaign
from sim.errors import SimError


def test_the_frame_groups_live_in_sim_options_and_keep_their_old_names():
    assert sim.battle.battle.BattleOptions is sim.options.BattleOptions
    assert sim.aftermath.CampOptions is sim.options.CampOptions
    assert sim.run.campaign.CampaignOptions is sim.options.CampaignOptions
    for name in ("option", "build_options", "describe_options"):
        assert getattr(sim.options, name) is getattr(sim.rules.common, name)


@pytest.mark.parametrize(
    ("group", "values", "message"),
    [
        (sim.options.BattleOptions, {"rout": "run"}, "battle.rout: 'run' is not one of"),
        (sim.options.CampOptions, {"healer_hours": 25}, "camp.healer_hours: 25 is out of range"),
        (sim.options.CampaignOptions, {"fled": "stay"}, "campaign.fled: 'stay' is not one of"),
    ],
)
def test_every_frame_group_is_built_and_checked_by_build_options(group, values, message):
    where = message.partition(".")[0]
    with pytest.raises(SimError, match=message):
        sim.options.build_options(group, values, where=where)
    described = sim.options.describe_options(group)
    assert described and all(o["doc"] and o["tag"] in ("I", "H") for o in described)


def test_a_misspelt_choice_is_answered_with_the_closest_ones(capsys):
    from sim.cli import main
    from sim.rules.wargame import Options

    with pytest.raises(SimError) as err:
        sim.options.build_options(Options, {"loud_armor": "silnet"}, where="rules.options")
    assert str(err.value) == (
        "rules.options.loud_armor: 'silnet' is not one of 'heard', 'silent'; did you mean 'silent'?"
    )
    with pytest.raises(SimError) as err:  # nothing close: only the list
        sim.options.build_options(Options, {"loud_armor": "xyz"}, where="rules.options")
    assert str(err.value) == "rules.options.loud_armor: 'xyz' is not one of 'heard', 'silent'"
    code = main(["run", "scenarios/skirmish.yaml", "--set", "rules.options.loud_armor=silnet"])
    assert code == 2
    assert capsys.readouterr().err.endswith("; did you mean 'silent'?\n")


def test_a_misspelt_d6_choice_is_answered_too():
    from sim.rules.d6 import Options

    with pytest.raises(SimError) as err:
        Options(poison_from="woundd")
    assert str(err.value) == (
        "options.poison_from: 'woundd' is not one of 'wounded', 'stunned'; did you mean 'wounded'?"
    )
