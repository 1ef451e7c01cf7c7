"""The package's version: written into every manifest and report, read by ``sim --version``.

It is on the ground floor so that every stage can name it without importing the package's
public functions above them (``sim.sweep`` and ``sim.load``).
"""

__version__ = "0.1.0"
