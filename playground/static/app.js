// The playground page: paints the simulated chats from /api/state, live.
// Its own texts come with the state too, in the playground's language.
"use strict";

const chatsEl = document.getElementById("chats");
const whoEl = document.getElementById("who");
const languageEl = document.getElementById("language");
const toastsEl = document.getElementById("toasts");
const personEl = document.getElementById("person");
const panels = new Map(); // chat id -> {root, list, signature, keys, form, start, jump}
const pending = new Map(); // callback query id -> the person who pressed
const linked = new Map(); // person -> the ?start= payload of the link they followed
let state = null;
let language = null; // the language the page's texts are painted in
let chosen = null; // the person to pick in the who-list once the state has them

// A text of the page; {name} fields filled from params.
function tr(key, params = {}) {
  const text = state.texts[key] || key;
  return text.replace(/\{(\w+)\}/g, (field, name) => (name in params ? params[name] : field));
}

function paintTexts() {
  document.documentElement.lang = state.language;
  document.title = tr("title");
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = tr(el.dataset.text);
  for (const el of document.querySelectorAll("[data-label]")) {
    el.setAttribute("aria-label", tr(el.dataset.label));
  }
  languageEl.replaceChildren(
    ...Object.entries(state.languages).map(([code, name]) => new Option(name, code)),
  );
  languageEl.value = state.language;
  // The chats' own texts were painted in the language before: paint them afresh.
  for (const panel of panels.values()) panel.root.remove();
  panels.clear();
  language = state.language;
}

// POST JSON; a refusal's reason goes to complain (a toast) and gives null.
async function post(path, body, complain = toast) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    complain(await response.text());
    return null;
  }
  return response.json();
}

function toast(text) {
  const el = document.createElement("div");
  el.className = "toast";
  el.textContent = text;
  toastsEl.appendChild(el);
  setTimeout(() => el.remove(), 3500);
}

function alertBox(text) {
  document.getElementById("alert-text").textContent = text;
  document.getElementById("alert").classList.remove("hidden");
}
document.getElementById("alert-ok").onclick = () =>
  document.getElementById("alert").classList.add("hidden");

// Telegram text with its entities (offsets count UTF-16 units, as JS strings do).
const TAGS = {
  bold: "b", italic: "i", underline: "u", strikethrough: "s", code: "code", pre: "pre",
  spoiler: "span",
};

function rich(text, entities, person) {
  const cuts = new Set([0, text.length]);
  for (const e of entities) {
    cuts.add(e.offset);
    cuts.add(e.offset + e.length);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out = document.createDocumentFragment();
  for (let i = 0; i + 1 < points.length; i++) {
    const [from, to] = [points[i], points[i + 1]];
    let node = document.createTextNode(text.slice(from, to));
    const covering = entities
      .filter((e) => e.offset <= from && e.offset + e.length >= to)
      .sort((a, b) => b.length - a.length);
    for (const e of covering.reverse()) {
      let wrap;
      if (e.type === "text_link" || e.type === "url") {
        wrap = document.createElement("a");
        const url = e.url || text.slice(e.offset, e.offset + e.length);
        wrap.href = url;
        wrap.target = "_blank";
        wrap.rel = "noopener";
        if (deepLink(url) !== null) {
          // A link to the bot (an analysis's move): followed as Telegram
          // does, by the person whose chat shows it, not a t.me page.
          wrap.onclick = (event) => {
            event.preventDefault();
            follow(url, person());
          };
        }
      } else if (TAGS[e.type]) {
        wrap = document.createElement(TAGS[e.type]);
      } else {
        continue;
      }
      wrap.appendChild(node);
      node = wrap;
    }
    out.appendChild(node);
  }
  return out;
}

function deepLink(url) {
  const match = /^https:\/\/t\.me\/([A-Za-z0-9_]+)\?start=([A-Za-z0-9_-]*)$/.exec(url || "");
  return match && match[1] === state.bot.username ? match[2] : null;
}

function opened(person) {
  const found = state.people.find((p) => p.id === person);
  return !found || found.opened;
}

// A t.me link to the bot opens the person's chat with it, as Telegram does:
// if they had opened the bot, it sends "/start payload" at once; if not, the
// chat waits for them to press Start, which sends it then.
async function follow(url, person) {
  const payload = deepLink(url);
  if (payload === null) {
    if (url) window.open(url, "_blank", "noopener");
    return;
  }
  const panel = panels.get(person);
  if (panel) panel.root.scrollIntoView({ behavior: "smooth", block: "nearest", inline: "nearest" });
  if (opened(person)) {
    await post("/api/start", { user: person, payload });
  } else {
    linked.set(person, payload);
    if (panel) panel.start.querySelector("button").focus();
  }
}

async function startBot(person) {
  const payload = linked.get(person) || "";
  linked.delete(person);
  await post("/api/start", { user: person, payload });
}

async function press(chat, message, button, person) {
  if (button.url) {
    await follow(button.url, person);
    return;
  }
  const answer = await post("/api/press", {
    user: person, chat: chat.id, message: message.id, data: button.data,
    ephemeral: message.receiver !== null && message.receiver !== undefined,
  });
  if (answer) pending.set(answer.query, person);
}

function presser(chat) {
  return chat.kind === "private" ? chat.id : Number(whoEl.value);
}

function messageEl(chat, message) {
  const el = document.createElement("div");
  el.className = "msg" + (message.bot ? "" : " person");
  // An ephemeral message: in the group, seen by its receiver alone.
  if (message.receiver) el.classList.add("ephemeral");
  el.dataset.id = message.id;
  if (chat.kind !== "private" || !message.bot) {
    const from = document.createElement("div");
    from.className = "from";
    from.textContent = message.from;
    el.appendChild(from);
  }
  if (message.photo) {
    const img = document.createElement("img");
    img.src = message.photo;
    img.width = message.width;
    img.height = message.height;
    img.alt = "";
    el.appendChild(img);
  }
  const body = document.createElement("div");
  body.className = "text";
  body.appendChild(rich(message.text, message.entities || [], () => presser(chat)));
  el.appendChild(body);
  if (message.buttons && message.buttons.length) {
    const keyboard = document.createElement("div");
    keyboard.className = "keyboard";
    for (const row of message.buttons) {
      const rowEl = document.createElement("div");
      rowEl.className = "row";
      for (const button of row) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = button.text;
        if (button.url) b.classList.add("link");
        if (button.style) b.classList.add("style-" + button.style);
        b.disabled = Boolean(button.disabled);
        b.onclick = () => press(chat, message, button, presser(chat));
        rowEl.appendChild(b);
      }
      keyboard.appendChild(rowEl);
    }
    el.appendChild(keyboard);
  }
  if (message.edited || message.pinned || message.receiver) {
    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = [
      message.receiver ? tr("only_you") : "",
      message.pinned ? "📌" : "",
      message.edited ? tr("edited") : "",
    ].join(" ");
    el.appendChild(meta);
  }
  return el;
}

function panelFor(chat) {
  let panel = panels.get(chat.id);
  if (panel) return panel;
  const root = document.createElement("section");
  root.className = "chat";
  root.dataset.chat = chat.id;
  const title = document.createElement("h2");
  const name = document.createElement("span");
  name.textContent = chat.title;
  if (chat.kind === "private") {
    const small = document.createElement("small");
    small.textContent = " · " + tr("private_chat");
    title.append(name, small);
  } else {
    title.append("👥 ", name);
  }
  const list = document.createElement("div");
  list.className = "messages";
  // Telegram's arrow: new messages came while the chat was scrolled up.
  const jump = document.createElement("button");
  jump.type = "button";
  jump.className = "jump hidden";
  jump.textContent = tr("new_messages");
  jump.onclick = () => {
    list.scrollTop = list.scrollHeight;
    jump.classList.add("hidden");
  };
  list.onscroll = () => {
    if (atBottom(list)) jump.classList.add("hidden");
  };
  const form = document.createElement("form");
  form.className = "composer";
  const input = document.createElement("input");
  input.placeholder = tr(chat.kind === "private" ? "message_bot" : "message_group");
  input.setAttribute("aria-label", tr("message_to", { chat: chat.title }));
  const send = document.createElement("button");
  send.type = "submit";
  send.textContent = tr("send");
  form.append(input, send);
  // A private chat whose person has not opened the bot: Telegram's Start.
  const start = document.createElement("div");
  start.className = "start hidden";
  const why = document.createElement("p");
  why.textContent = tr("not_started");
  const startButton = document.createElement("button");
  startButton.type = "button";
  startButton.textContent = tr("start");
  startButton.onclick = () => startBot(chat.id);
  start.append(why, startButton);
  form.onsubmit = async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    await post("/api/send", { user: presser(chat), chat: chat.id, text });
  };
  const messages = document.createElement("div");
  messages.className = "scroller";
  messages.append(list, jump);
  root.append(title, messages, form, start);
  chatsEl.appendChild(root);
  panel = { root, list, signature: "", keys: new Set(), form, start, jump };
  panels.set(chat.id, panel);
  return panel;
}

// Whether a chat is scrolled to its last message (give or take a line), so
// that what comes next is followed.
function atBottom(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 60;
}

function paint() {
  if (state.language !== language) paintTexts();
  const choice = chosen || whoEl.value;
  whoEl.replaceChildren(...state.people.map((person) => new Option(person.name, person.id)));
  whoEl.value = choice;
  if (whoEl.value === choice) chosen = null;
  if (!whoEl.value && state.people.length) whoEl.value = String(state.people[0].id);
  const seen = new Set();
  for (const chat of state.chats) {
    seen.add(chat.id);
    const panel = panelFor(chat);
    const closed = chat.kind === "private" && !opened(chat.id);
    panel.form.classList.toggle("hidden", closed);
    panel.start.classList.toggle("hidden", !closed);
    // A group's ephemeral messages: only those of the person chosen as "you",
    // under the group's own messages.
    const mine = (chat.ephemeral || []).filter((m) => String(m.receiver) === whoEl.value);
    const shown = [...chat.messages, ...mine];
    const signature = JSON.stringify(shown);
    if (signature === panel.signature) continue;
    panel.signature = signature;
    const list = panel.list;
    const following = atBottom(list);
    list.replaceChildren(...shown.map((m) => messageEl(chat, m)));
    // New: a message not shown before (a hand sent anew while its old one is
    // deleted leaves the count as it was).
    const keys = new Set(shown.map((m) => (m.receiver ? "e" : "m") + m.id));
    const arrived = [...keys].some((key) => !panel.keys.has(key));
    if (following) list.scrollTop = list.scrollHeight;
    else if (arrived) panel.jump.classList.remove("hidden");
    panel.keys = keys;
  }
  for (const [id, panel] of panels) {
    if (!seen.has(id)) {
      panel.root.remove();
      panels.delete(id);
    }
  }
  for (const [query, person] of pending) {
    const answer = state.answers[query];
    if (!answer || answer.pending) continue;
    pending.delete(query);
    if (answer.url) follow(answer.url, person);
    if (answer.text) (answer.alert ? alertBox : toast)(answer.text);
  }
}

let fetching = null;
let again = false;
async function refresh() {
  if (fetching) {
    again = true;
    return;
  }
  fetching = fetch("/api/state").then((r) => r.json());
  try {
    state = await fetching;
    paint();
  } finally {
    fetching = null;
    if (again) {
      again = false;
      refresh();
    }
  }
}

async function reset(language) {
  for (const panel of panels.values()) panel.root.remove();
  panels.clear();
  pending.clear();
  linked.clear();
  await post("/api/reset", { language });
  refresh();
}

document.getElementById("reset").onclick = () => reset(state.language);
languageEl.onchange = () => reset(languageEl.value);
whoEl.onchange = () => paint(); // another person's view of the groups: his own ephemeral messages

const personError = document.getElementById("person-error");
document.getElementById("add-person").onclick = () => {
  document.getElementById("person-form").reset();
  personError.textContent = "";
  personEl.showModal();
};
document.getElementById("person-cancel").onclick = () => personEl.close();
document.getElementById("person-form").onsubmit = async (event) => {
  event.preventDefault();
  const name = document.getElementById("person-name").value.trim();
  if (!name) return;
  const notOpened = document.getElementById("person-not-opened").checked;
  const added = await post("/api/people", { name, opened: !notOpened }, (why) => {
    personError.textContent = why; // the dialog stays, for another name
  });
  if (!added) return;
  personEl.close();
  chosen = String(added.id); // whoever adds someone means to play as them
  refresh();
};

new EventSource("/api/events").onmessage = () => refresh();
refresh();
