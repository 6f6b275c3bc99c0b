"""Suite-wide test ordering."""


def pytest_collection_modifyitems(config, items):
    # Playwright's sync API keeps an event loop running on the main thread for as long as the
    # session-scoped browser lives; tests calling asyncio.run() must not come after it.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
