// The offline page's script (an external file: the app's CSP allows no inline scripts). Picks
// the texts of the language the app last used, and reloads when the connection comes back.
const texts = __TEXTS__;

function language() {
  const stored = localStorage.getItem("candor.locale");
  if (stored && texts[stored]) return stored;
  const browser = (navigator.language || "en").toLowerCase();
  const match = Object.keys(texts).find((code) => browser.startsWith(code.toLowerCase()));
  return match ?? "en";
}

const chosen = texts[language()];
document.documentElement.lang = language();
document.title = chosen.title;
document.getElementById("title").textContent = chosen.title;
document.getElementById("body").textContent = chosen.body;
const retry = document.getElementById("retry");
retry.textContent = chosen.retry;
retry.addEventListener("click", () => location.reload());
window.addEventListener("online", () => location.reload());
