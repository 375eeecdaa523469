"""The raid extension (tests/draft_daimyo/raid.py) installed on import, for ``TAKUJO_PLUGINS``."""
from tests.draft_daimyo import raid

raid.install()
