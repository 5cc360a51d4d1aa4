"""The playground in a real browser: Debian's chromium, driven through Selenium,
plays a whole game of Durak against a computer by clicking the page's buttons
(in Russian, the default), and adds people, one of whom has never opened the
bot (in English, and then switches the page to Russian); and plays a turn from
an ephemeral hand in the group, which another person's view does not show.

Screenshots of the start, the middle and the end of the game are kept in the
test's temporary directory.  Without the browser the test is skipped, except
under CI (``CI=true``), where a missing browser is a failure.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
ANNA = "101"
ANALYSIS_PATIENCE = 240.0
"""Seconds an analysis may take to arrive: the playground's computers think
at full time, and the analysis at the lowest CPU priority."""
GROUP = "-1001"

pytestmark = [pytest.mark.browser, pytest.mark.slow]

if not (CHROMIUM and CHROMEDRIVER):
    if os.environ.get("CI"):
        pytest.fail("the browser tests need Debian's chromium and chromium-driver", pytrace=False)
    pytest.skip(
        "no chromium/chromedriver: apt-get install chromium chromium-driver",
        allow_module_level=True,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def playground(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """``python -m bot`` with no token: the playground, on a free port, in the
    language the test is parametrized with (``indirect``), else the default."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("BOT_TOKEN", "DEFAULT_LANGUAGE")}
    env.update(PYTHONPATH=str(ROOT))
    language = getattr(request, "param", None)
    if language is not None:
        env.update(DEFAULT_LANGUAGE=language)
    log = (tmp_path / "playground.log").open("wb")
    process = subprocess.Popen(  # noqa: S603 - our own entry point, our own arguments
        [sys.executable, "-m", "bot", "--port", str(port), "--database", str(tmp_path / "pg.db")],
        cwd=tmp_path,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        url = f"http://127.0.0.1:{port}/"
        while f"{url}" not in (tmp_path / "playground.log").read_text(encoding="utf-8"):
            assert process.poll() is None, (tmp_path / "playground.log").read_text()
            assert time.monotonic() < deadline, "the playground did not come up"
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(10)
        log.close()
    output = (tmp_path / "playground.log").read_text(encoding="utf-8")
    assert "Traceback" not in output, output


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,900",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()


def panel(driver: webdriver.Chrome, chat: str) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f'section.chat[data-chat="{chat}"]')


TEXTS = """return Array.from(
    document.querySelectorAll(`section.chat[data-chat="${arguments[0]}"] .msg`),
    (message) => message.innerText.trim(),
);"""
"""The rendered texts of a chat's messages, read in one call to the page: an
element's ``.text`` is a round trip to the browser each, and a game's chat
holds hundreds of messages, read again at every poll."""


def texts(driver: webdriver.Chrome, chat: str) -> list[str]:
    try:
        found = driver.execute_script(TEXTS, chat)
    except WebDriverException:
        return []
    return [str(text) for text in found]


def wait(driver: webdriver.Chrome, check: object, timeout: float = 20) -> object:
    """Poll ``check`` until truthy; the page re-renders chats, so an element
    going stale mid-check just means "look again"."""
    return WebDriverWait(
        driver, timeout, poll_frequency=0.1, ignored_exceptions=[StaleElementReferenceException]
    ).until(
        lambda d: check(),  # type: ignore[operator]
    )


def open_page(driver: webdriver.Chrome, url: str, greeting: str) -> None:
    """Open the playground and wait for the bot's greeting in Anna's chat."""
    driver.get(url)
    wait(driver, lambda: any(greeting in t for t in texts(driver, ANNA)))


def choose(driver: webdriver.Chrome, select_id: str, value: str) -> None:
    """Pick an option of a ``<select>`` by value; the page rebuilds its people
    list as it polls, so a select gone stale under the pointer is picked again."""

    def picked() -> bool:
        select = Select(driver.find_element(By.ID, select_id))
        select.select_by_value(value)
        return select.first_selected_option.get_attribute("value") == value

    wait(driver, picked)


def who_options(driver: webdriver.Chrome) -> list[str]:
    """The names in the page's "who are you" list (read again if rebuilt meanwhile)."""
    return [o.text for o in Select(driver.find_element(By.ID, "who")).options]


def write(driver: webdriver.Chrome, chat: str, text: str) -> None:
    field = panel(driver, chat).find_element(By.CSS_SELECTOR, "form.composer input")
    field.send_keys(text)
    panel(driver, chat).find_element(By.CSS_SELECTOR, "form.composer button").click()


def click(driver: webdriver.Chrome, chat: str, label: str) -> None:
    """Click the latest button whose text contains ``label`` in the chat."""

    def find() -> WebElement | None:
        buttons = panel(driver, chat).find_elements(By.CSS_SELECTOR, ".keyboard button")
        matching = [b for b in buttons if label in b.text]
        return matching[-1] if matching else None

    def pressed() -> bool:
        button = find()
        if button is None:
            return False
        button.click()  # a button repainted meanwhile is stale: found again
        return True

    wait(driver, pressed)


def cycle(driver: webdriver.Chrome, chat: str, label: str, value: str) -> None:
    """Click the button whose text contains ``label`` until it ends with ``value``."""

    def shown() -> str:
        buttons = panel(driver, chat).find_elements(By.CSS_SELECTOR, ".keyboard button")
        return next((b.text for b in reversed(buttons) if label in b.text), "")

    for _ in range(6):
        before = wait(driver, shown)
        assert isinstance(before, str)
        if before.endswith(value):
            return
        click(driver, chat, label)
        wait(driver, lambda before=before: shown() not in ("", before))
    raise AssertionError(f"{label} never read {value}")


def move_buttons(driver: webdriver.Chrome) -> list[WebElement]:
    """The buttons of Anna's live hand that may be pressed now (only its last
    message has any)."""
    try:
        messages = panel(driver, ANNA).find_elements(By.CSS_SELECTOR, ".msg")
        if not messages:
            return []
        keys = messages[-1].find_elements(By.CSS_SELECTOR, ".keyboard button")
        return [key for key in keys if key.is_enabled()]  # a card not playable now is disabled
    except (StaleElementReferenceException, WebDriverException):
        return []


def test_a_whole_game_against_a_computer_by_clicking(
    playground: str, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    open_page(browser, playground, "Привет")
    browser.save_screenshot(str(tmp_path / "1-start.png"))
    # The page's own texts speak the bot's language too.
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ru"
    assert browser.find_element(By.ID, "reset").text == "Начать заново"
    assert "личный чат с ботом" in panel(browser, ANNA).find_element(By.TAG_NAME, "h2").text

    write(browser, GROUP, "/newgame durak")
    click(browser, GROUP, "Настройки")
    click(browser, GROUP, "+ компьютер")
    # A short game against a quick computer: the page is what is tested here.
    cycle(browser, GROUP, "Уровень 🤖", "лёгкий")
    cycle(browser, GROUP, "Колода", "24")
    click(browser, GROUP, "Назад")
    wait(browser, lambda: any("🤖" in t and "Игроки (2/4)" in t for t in texts(browser, GROUP)))
    click(browser, GROUP, "Начать")
    wait(browser, lambda: any("Козырь" in t for t in texts(browser, ANNA)))

    rng = random.Random(3)
    clicks = 0
    deadline = time.monotonic() + 240
    while not any("🏁" in t for t in texts(browser, GROUP)):
        assert time.monotonic() < deadline, "the game did not end"
        buttons = move_buttons(browser)
        if not buttons:
            time.sleep(0.2)  # the computer thinks, or the page paints
            continue
        before = texts(browser, ANNA)[-1:]
        try:
            rng.choice(buttons).click()
        except (StaleElementReferenceException, WebDriverException):
            continue  # repainted under the pointer: look again
        clicks += 1
        if clicks == 5:
            browser.save_screenshot(str(tmp_path / "2-middle.png"))
        wait(browser, lambda before=before: texts(browser, ANNA)[-1:] != before)
    browser.save_screenshot(str(tmp_path / "3-end.png"))
    assert clicks > 3
    result = next(t for t in texts(browser, GROUP) if "🏁" in t)
    assert "Дурак" in result or "ничья" in result  # both out with the last cards: a draw
    assert any("Партия окончена" in t for t in texts(browser, ANNA))

    # The result's "▶️ Повтор" opens the replay in Anna's chat; ⏭ shows the end.
    click(browser, GROUP, "Повтор")
    wait(browser, lambda: any("🎬" in t and "Раздача" in t for t in texts(browser, ANNA)))
    click(browser, ANNA, "⏭")
    wait(browser, lambda: any(re.search(r"Ход (\d+) из \1:", t) for t in texts(browser, ANNA)))
    browser.save_screenshot(str(tmp_path / "5-replay.png"))

    write(browser, GROUP, "/stats")
    wait(browser, lambda: any("с компьютерами: игр 1" in t for t in texts(browser, GROUP)))
    browser.save_screenshot(str(tmp_path / "4-stats.png"))
    assert (tmp_path / "3-end.png").stat().st_size > 10_000

    # The analysis names each costly move by a link to the replay at it: a
    # click opens that frame in Anna's chat, as Telegram follows a link to
    # the bot (it did open a t.me page in a new tab instead).
    click(browser, GROUP, "Анализ моей игры")
    analysis = wait(
        browser,
        lambda: next((t for t in texts(browser, ANNA) if "🍀" in t), None),
        timeout=ANALYSIS_PATIENCE,
    )
    links = panel(browser, ANNA).find_elements(By.CSS_SELECTOR, 'a[href*="?start=p1_"]')
    if not links:  # no move of hers clearly worse than the best: nothing to link
        assert "Ни один ваш ход заметно не уступал лучшему" in str(analysis)
        return
    move = int(str(links[0].get_attribute("href")).rsplit("_", 1)[1])
    frames = len([t for t in texts(browser, ANNA) if "🎬" in t])
    browser.execute_script("arguments[0].scrollIntoView()", links[0])
    links[0].click()
    wait(browser, lambda: len([t for t in texts(browser, ANNA) if "🎬" in t]) > frames)
    assert f"Ход {move} из " in [t for t in texts(browser, ANNA) if "🎬" in t][-1]
    assert len(browser.window_handles) == 1, "the link opened another tab"


def header_button(driver: webdriver.Chrome, element_id: str) -> WebElement:
    return driver.find_element(By.ID, element_id)


def add_person(driver: webdriver.Chrome, name: str, *, opened: bool) -> None:
    header_button(driver, "add-person").click()
    dialog = driver.find_element(By.ID, "person")
    wait(driver, dialog.is_displayed)
    dialog.find_element(By.ID, "person-name").send_keys(name)
    if not opened:
        dialog.find_element(By.ID, "person-not-opened").click()
    dialog.find_element(By.ID, "person-add").click()


def chosen(driver: webdriver.Chrome) -> str:
    return str(Select(driver.find_element(By.ID, "who")).first_selected_option.text)


@pytest.mark.parametrize("playground", ["en"], indirect=True)
def test_people_are_added_and_one_joins_without_opening_the_bot(
    playground: str, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    open_page(browser, playground, "Hi! I am Koloda")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    assert browser.find_element(By.ID, "reset").text == "New playground"
    assert browser.find_element(By.CSS_SELECTOR, "label.who").text.startswith("You are")
    composer = panel(browser, GROUP).find_element(By.CSS_SELECTOR, "form.composer input")
    assert composer.get_attribute("placeholder") == "Message the group, e.g. /newgame"
    write(browser, GROUP, "/newgame durak")
    wait(browser, lambda: any("Players (1/6)" in t for t in texts(browser, GROUP)))

    # Vera has never opened the bot: her chat offers Start instead of a composer.
    add_person(browser, "Vera", opened=False)
    vera = "103"
    wait(browser, lambda: chosen(browser) == "Vera")  # whoever adds someone plays as them
    start = panel(browser, vera).find_element(By.CSS_SELECTOR, ".start button")
    assert start.text.lower() == "start"
    assert "cannot write first" in panel(browser, vera).text
    assert not panel(browser, vera).find_element(By.CSS_SELECTOR, "form.composer").is_displayed()
    browser.save_screenshot(str(tmp_path / "1-vera-added.png"))

    # She presses Join: no private chat is needed (her hands can come to her in
    # the group), so she is seated at once and her chat with the bot stays empty.
    click(browser, GROUP, "🙋")
    wait(browser, lambda: any("Players (2/6)" in t for t in texts(browser, GROUP)))
    assert texts(browser, vera) == []
    browser.save_screenshot(str(tmp_path / "2-vera-seated.png"))
    # Start opens her chat with the bot whenever she likes.
    start.click()
    wait(browser, lambda: any("Hi! I am Koloda" in t for t in texts(browser, vera)))
    assert panel(browser, vera).find_element(By.CSS_SELECTOR, "form.composer").is_displayed()

    # Gleb had opened the bot before: greeted at once.  A name taken is refused.
    add_person(browser, "Gleb", opened=True)
    wait(browser, lambda: any("Hi! I am Koloda" in t for t in texts(browser, "104")))
    add_person(browser, "gleb", opened=True)
    error = browser.find_element(By.ID, "person-error")
    wait(browser, lambda: error.text == "There is already someone called gleb")
    browser.find_element(By.ID, "person-cancel").click()
    assert wait(browser, lambda: who_options(browser)) == ["Anna", "Boris", "Vera", "Gleb"]

    # Another language: a new playground in it.
    Select(browser.find_element(By.ID, "language")).select_by_visible_text("Русский")
    wait(browser, lambda: any("Привет" in t for t in texts(browser, ANNA)))
    assert browser.find_element(By.ID, "reset").text == "Начать заново"
    assert wait(browser, lambda: who_options(browser)) == ["Аня", "Борис"]
    browser.save_screenshot(str(tmp_path / "3-russian.png"))


def ephemeral(driver: webdriver.Chrome) -> list[WebElement]:
    """The ephemeral messages the group's panel shows (those of "you")."""
    try:
        return panel(driver, GROUP).find_elements(By.CSS_SELECTOR, ".msg.ephemeral")
    except (StaleElementReferenceException, WebDriverException):
        return []


def ephemeral_moves(driver: webdriver.Chrome) -> list[WebElement]:
    """The move buttons of Anna's hand in the group (not "to my DM")."""
    try:
        shown = ephemeral(driver)
        buttons = shown[-1].find_elements(By.CSS_SELECTOR, ".keyboard button") if shown else []
        return [b for b in buttons if "✉️" not in b.text and b.is_enabled()]
    except (StaleElementReferenceException, WebDriverException):
        return []


def test_a_turn_played_from_an_ephemeral_hand_in_the_group(
    playground: str, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    request = urllib.request.Request(  # noqa: S310 - the playground on 127.0.0.1
        playground + "api/people",
        data=json.dumps({"name": "Vera", "opened": False}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:  # noqa: S310 - the same
        vera = str(json.loads(answer.read())["id"])
    open_page(browser, playground, "Привет")
    write(browser, GROUP, "/newgame durak")
    click(browser, GROUP, "Настройки")
    click(browser, GROUP, "+ компьютер")
    click(browser, GROUP, "Назад")
    wait(browser, lambda: any("Игроки (2/6)" in t for t in texts(browser, GROUP)))
    click(browser, GROUP, "Начать")
    wait(browser, lambda: any("Козырь" in t for t in texts(browser, ANNA)))

    # Anna (the page's "you") presses "my cards": her hand, in the group, to her alone.
    click(browser, GROUP, "Мои карты")
    wait(browser, lambda: ephemeral_moves(browser))
    # Read and pressed within wait(): the page repaints under the pointer.
    shown = wait(browser, lambda: [m.text for m in ephemeral(browser)])
    assert isinstance(shown, list)
    (before,) = shown
    assert "видите только вы" in before
    browser.save_screenshot(str(tmp_path / "ephemeral-hand.png"))

    def press_a_move() -> bool:
        buttons = ephemeral_moves(browser)
        if buttons:
            buttons[0].click()
        return bool(buttons)

    wait(browser, press_a_move)
    wait(browser, lambda: [m.text for m in ephemeral(browser)] not in ([], [before]))

    # In Vera's view of the group, nothing of Anna's hand.
    choose(browser, "who", vera)
    wait(browser, lambda: ephemeral(browser) == [])
    assert all("Ваши карты" not in t for t in texts(browser, GROUP))


LIST = 'document.querySelector(`section.chat[data-chat="${arguments[0]}"] .messages`)'
"""A chat's list of messages, in the page's script."""
SCROLLED = f"const list = {LIST};\nreturn list.scrollHeight - list.scrollTop - list.clientHeight;"
"""How far a chat's messages are scrolled up from the last one, in pixels."""


def scrolled_up(driver: webdriver.Chrome, chat: str) -> float:
    return float(driver.execute_script(SCROLLED, chat))


@pytest.mark.parametrize("playground", ["en"], indirect=True)
def test_a_chat_scrolled_up_offers_the_new_messages(
    playground: str, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    open_page(browser, playground, "Hi! I am Koloda")
    for sent in range(1, 4):  # long answers, more than the panel holds
        write(browser, ANNA, "/help")
        wait(browser, lambda sent=sent: len(texts(browser, ANNA)) >= 1 + 2 * sent)
    jump = panel(browser, ANNA).find_element(By.CSS_SELECTOR, ".jump")
    assert scrolled_up(browser, ANNA) < 60  # it followed the answers
    assert not jump.is_displayed()

    browser.execute_script(f"{LIST}.scrollTop = 0;", ANNA)
    count = len(texts(browser, ANNA))
    write(browser, ANNA, "/help")
    wait(browser, lambda: len(texts(browser, ANNA)) >= count + 2)
    wait(browser, jump.is_displayed)
    assert jump.text == "↓ New messages"
    assert scrolled_up(browser, ANNA) > 60  # still where the reader left it
    browser.save_screenshot(str(tmp_path / "new-messages.png"))

    jump.click()
    wait(browser, lambda: scrolled_up(browser, ANNA) < 60)
    assert not jump.is_displayed()
