// The playground page: paints the simulated chats from /api/state, live.
"use strict";

const chatsEl = document.getElementById("chats");
const whoEl = document.getElementById("who");
const toastsEl = document.getElementById("toasts");
const panels = new Map(); // chat id -> {root, list, signature}
const pending = new Map(); // callback query id -> the person who pressed
let state = null;

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    toast(await response.text());
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

function rich(text, entities) {
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
        wrap.href = e.url || text.slice(e.offset, e.offset + e.length);
        wrap.target = "_blank";
        wrap.rel = "noopener";
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

async function follow(url, person) {
  const payload = deepLink(url);
  if (payload !== null) {
    await post("/api/start", { user: person, payload });
  } else if (url) {
    window.open(url, "_blank", "noopener");
  }
}

async function press(chat, message, button, person) {
  if (button.url) {
    await follow(button.url, person);
    return;
  }
  const answer = await post("/api/press", {
    user: person, chat: chat.id, message: message.id, data: button.data,
  });
  if (answer) pending.set(answer.query, person);
}

function presser(chat) {
  return chat.kind === "private" ? chat.id : Number(whoEl.value);
}

function messageEl(chat, message) {
  const el = document.createElement("div");
  el.className = "msg" + (message.bot ? "" : " person");
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
  body.appendChild(rich(message.text, message.entities || []));
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
        b.onclick = () => press(chat, message, button, presser(chat));
        rowEl.appendChild(b);
      }
      keyboard.appendChild(rowEl);
    }
    el.appendChild(keyboard);
  }
  if (message.edited || message.pinned) {
    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = [message.pinned ? "📌" : "", message.edited ? "edited" : ""].join(" ");
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
  title.innerHTML = chat.kind === "private" ? "<span></span> <small>· private chat with the bot</small>" : "👥 <span></span>";
  title.querySelector("span").textContent = chat.title;
  const list = document.createElement("div");
  list.className = "messages";
  const form = document.createElement("form");
  form.className = "composer";
  const input = document.createElement("input");
  input.placeholder = chat.kind === "private" ? "Message the bot" : "Message the group, e.g. /newgame";
  input.setAttribute("aria-label", "message to " + chat.title);
  const send = document.createElement("button");
  send.type = "submit";
  send.textContent = "Send";
  form.append(input, send);
  form.onsubmit = async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    await post("/api/send", { user: presser(chat), chat: chat.id, text });
  };
  root.append(title, list, form);
  chatsEl.appendChild(root);
  panel = { root, list, signature: "" };
  panels.set(chat.id, panel);
  return panel;
}

function paint() {
  const chosen = whoEl.value;
  whoEl.innerHTML = "";
  for (const person of state.people) {
    const option = document.createElement("option");
    option.value = person.id;
    option.textContent = person.name;
    whoEl.appendChild(option);
  }
  whoEl.value = chosen || String(state.people[0] && state.people[0].id);
  const seen = new Set();
  for (const chat of state.chats) {
    seen.add(chat.id);
    const panel = panelFor(chat);
    const signature = JSON.stringify(chat.messages);
    if (signature === panel.signature) continue;
    panel.signature = signature;
    const list = panel.list;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 60;
    list.replaceChildren(...chat.messages.map((m) => messageEl(chat, m)));
    if (atBottom) list.scrollTop = list.scrollHeight;
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

document.getElementById("reset").onclick = async () => {
  for (const panel of panels.values()) panel.root.remove();
  panels.clear();
  pending.clear();
  await post("/api/reset", {});
  refresh();
};

new EventSource("/api/events").onmessage = () => refresh();
refresh();
