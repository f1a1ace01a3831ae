// Page-wide preferences in the header: the EN/FR language switch (a cookie the server reads, so templates
// and scripts change together; the page reloads in the new language).

import { language, setLanguage } from "./i18n.js";

for (const button of document.querySelectorAll(".lang-btn[data-lang]")) {
  button.addEventListener("click", () => {
    const lang = button.dataset.lang;
    if (lang === language() && document.documentElement.lang === lang) return;
    setLanguage(lang);
    // Keep the place on the page (and any typed room code in the URL); the server renders the new language.
    location.reload();
  });
}
