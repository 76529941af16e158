"""Build the fixture networks from the fixtures' own MindSpore scripts, through the compat hook."""
import os
import runpy

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "mindspore-2.10")


def fixture_path(name):
    return os.path.join(FIXTURES, name)


def build(name):
    """Run ``<name>.py`` (written for MindSpore) under sporax and return its ``build()``."""
    import sporax.compat

    sporax.compat.install()
    namespace = runpy.run_path(fixture_path(name + ".py"))
    return namespace["build"]()
