// Draw every <pre class="mermaid"> of the page with the site's own copy of Mermaid (mermaid.min.js).
document.addEventListener("DOMContentLoaded", function () {
  mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: "default" });
  mermaid.run({ querySelector: "pre.mermaid" });
});
