"""The plugin form of tests/extension/steal.py: importing this module installs 盗賊's ``steal``
(``TAKUJO_PLUGINS=tests.extension.steal_plugin``)."""
from tests.extension import steal

steal.install()
