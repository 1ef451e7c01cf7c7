"""The option catalogue: every documented option of every group, for ``sim options`` and docs.

The groups are each rule system's options (``rules.options``), the battle frame's house
rules (``battle``), the tactics' parameters (``tactic``), each system's aftermath options
(``aftermath.options``), the camp's (``aftermath.camp``) and the campaign's
(``campaign.options``). Each row: group (``system``), name, default, tag ([I]/[H]), choices
and meaning.
"""

from __future__ import annotations

from typing import Any


def option_rows(group: str | None = None) -> list[dict[str, Any]]:
    """Every documented option: each system's, the battle frame's and the tactics' parameters."""
    from sim.options import BattleOptions, describe_options
    from sim.rules import SYSTEMS
    from sim.tactics import describe_tactics

    groups: dict[str, list[dict[str, Any]]] = {
        name: describe_options(module.Options) for name, module in SYSTEMS.items()
    }
    groups["battle"] = describe_options(BattleOptions)
    groups["tactic"] = describe_tactics()
    groups.update(_after_option_groups())
    if group is not None and group not in groups:
        from sim.errors import unknown

        raise unknown("option group", group, groups)
    names = [group] if group else list(groups)
    return [{"system": n, **o} for n in names for o in groups[n]]


def _after_option_groups() -> dict[str, list[dict[str, Any]]]:
    """The aftermath's option groups.

    Each system's (a scenario's ``aftermath.options``), ``camp`` (``aftermath.camp``) and
    ``campaign`` (``campaign.options``).
    """
    from sim.options import CampaignOptions, CampOptions, describe_options
    from sim.rules import d6, deathwish, twowp

    return {
        "2w2p-aftermath": describe_options(twowp.AftermathOptions),
        "deathwish-aftermath": describe_options(deathwish.AftermathOptions),
        "d6-aftermath": describe_options(d6.AftermathOptions),
        "camp": describe_options(CampOptions),
        "campaign": describe_options(CampaignOptions),
    }
