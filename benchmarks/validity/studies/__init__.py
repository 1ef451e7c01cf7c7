"""The studies, one module each, and the registry that lists them in report order.

Each module builds one :class:`~benchmarks.validity.study.Study` (``STUDY``): its points, its
study function, its checks, its report section and its chart. To add a study, write its
module here and add its ``STUDY`` to :data:`STUDIES`.
"""

from benchmarks.validity.studies import lanchester, mirror, monotone, scale, shipped, survivors
from benchmarks.validity.study import Study

STUDIES: tuple[Study, ...] = (
    mirror.STUDY,  # a. identical sides win equally often, whichever is listed first
    monotone.STUDY,  # b. a side made stronger never does significantly worse
    lanchester.STUDY,  # c. the bigger side wins, against Lanchester's laws
    survivors.STUDY,  # d. 100 v 80: the bigger side's survivors (measured)
    scale.STUDY,  # e. large scale agrees with small; head count counts at large scale
    shipped.STUDY,  # f. the shipped scenarios at both scales, rule by rule; faction pools
)
"""Every study, in the order they run and the report shows them."""
