/**
 * The built-in identity provider's pages, rendered on the server and styled like the app (the
 * palette mirrors web/src/styles.css, light and dark; before sign-in the device's setting decides). They run no inline script, so the app's CSP holds here too.
 */

export const ASSETS_PREFIX = "/auth/assets";

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => escapes[char] ?? char);
}

export function layout(title: string, body: string, extraHead = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#0d9488">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} · Charity Steps</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${ASSETS_PREFIX}/pages.css">
${extraHead}
</head>
<body>
<header class="brand"><a href="/"><img src="/favicon.svg" alt="" width="32" height="32">Charity Steps</a></header>
<main class="card">
${body}
</main>
</body>
</html>`;
}

export function errorBox(error: string | undefined): string {
  return error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : "";
}

export function field(id: string, label: string, type: string, value: string, autocomplete: string): string {
  return `<label for="${id}">${label}</label>
<input id="${id}" name="${id}" type="${type}" value="${escapeHtml(value)}" autocomplete="${autocomplete}" required>`;
}

export function signInPage(uid: string, values: { email?: string } = {}, error?: string): string {
  return layout(
    "Sign in",
    `<h1>Sign in</h1>
<p class="lead">Sign in to count your steps for charity. New here? Create an account below.</p>
${errorBox(error)}
<form method="post" action="/auth/interaction/${escapeHtml(uid)}/login" novalidate>
${field("email", "Email", "email", values.email ?? "", "email")}
${field("password", "Password", "password", "", "current-password")}
<button type="submit">Sign in</button>
</form>
<p class="switch"><a href="/auth/forgot-password">Forgot your password?</a></p>
<p class="switch">New to Charity Steps? <a href="/auth/interaction/${escapeHtml(uid)}/signup">Create an account</a></p>
<p class="switch"><a href="/auth/interaction/${escapeHtml(uid)}/abort">Cancel and go back</a></p>`,
  );
}

export interface SignUpValues {
  firstName?: string;
  lastName?: string;
  email?: string;
}

export function signUpPage(uid: string, values: SignUpValues = {}, error?: string): string {
  return layout(
    "Create your account",
    `<h1>Create your account</h1>
<p class="lead">Join the free beta: count your steps, support a charity and earn prize entries.</p>
${errorBox(error)}
<form method="post" action="/auth/interaction/${escapeHtml(uid)}/signup" novalidate>
${field("firstName", "First name", "text", values.firstName ?? "", "given-name")}
${field("lastName", "Last name", "text", values.lastName ?? "", "family-name")}
${field("email", "Email", "email", values.email ?? "", "email")}
${field("password", "Password", "password", "", "new-password")}
<p class="hint">At least 8 characters, and not a common or leaked password: a few unrelated words make a good one.</p>
<button type="submit">Create account</button>
</form>
<p class="switch">Already have an account? <a href="/auth/interaction/${escapeHtml(uid)}/login">Sign in</a></p>
<p class="switch"><a href="/auth/interaction/${escapeHtml(uid)}/abort">Cancel and go back</a></p>`,
  );
}

export function messagePage(title: string, message: string, link: { href: string; label: string }): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="lead">${escapeHtml(message)}</p>
<a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`,
  );
}

/**
 * Signing out of the provider needs a POST carrying its xsrf token. When the app's own sign-out
 * led here, a small script submits it; a link on another site only gets the question, whose
 * button the walker presses (or not).
 */
export function signOutPage(form: string, fromAnotherSite = false): string {
  const withLogout = form.replace("</form>", '<input type="hidden" name="logout" value="yes"></form>');
  if (fromAnotherSite) {
    return layout(
      "Sign out?",
      `<h1>Sign out of Charity Steps?</h1>
<p class="lead">A link on another site asked to sign you out. Your steps are kept either way.</p>
${withLogout}
<button type="submit" form="op.logoutForm">Sign out</button>
<p class="switch"><a href="/">Stay signed in</a></p>`,
    );
  }
  return layout(
    "Signing out",
    `<h1>Signing you out…</h1>
<p class="lead">One moment while we sign you out of Charity Steps.</p>
${withLogout}
<button type="submit" form="op.logoutForm">Sign out</button>`,
    `<script src="${ASSETS_PREFIX}/sign-out.js" defer></script>`,
  );
}

export const PAGES_CSS = `*{box-sizing:border-box}
:root{color-scheme:light dark;--page:#f8fafc;--surface:#fff;--ink:#0f172a;--muted:#64748b;--line:#e2e8f0;--field-line:#94a3b8;--brand:#0d9488;--brand-strong:#0f766e;--brand-stronger:#115e59;--on-brand:#fff;--notice-bg:#f0fdfa;--notice-line:#99f6e4;--notice-ink:#115e59;--error-bg:#fef2f2;--error-line:#fecaca;--error-ink:#b91c1c}
@media (prefers-color-scheme:dark){:root{--page:#0b1120;--surface:#111827;--ink:#e2e8f0;--muted:#94a3b8;--line:#334155;--field-line:#64748b;--brand:#14b8a6;--brand-strong:#2dd4bf;--brand-stronger:#5eead4;--on-brand:#042f2e;--notice-bg:#0d2b29;--notice-line:#0f766e;--notice-ink:#99f6e4;--error-bg:#2a0d0d;--error-line:#7f1d1d;--error-ink:#fca5a5}}
body{margin:0;min-height:100vh;background:var(--page);color:var(--ink);font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}
.brand{background:var(--surface);border-bottom:1px solid var(--line);padding:10px 16px}
.brand a{display:inline-flex;align-items:center;gap:8px;color:var(--ink);font-weight:700;font-size:1.05rem;text-decoration:none}
.brand img{border-radius:8px}
.card{max-width:420px;margin:32px auto;padding:28px 24px;background:var(--surface);border:1px solid var(--line);border-radius:12px;box-shadow:0 1px 2px rgba(15,23,42,.06)}
@media (max-width:480px){.card{margin:16px;padding:22px 18px}}
h1{margin:0 0 6px;font-size:1.5rem}
.lead{margin:0 0 20px;color:var(--muted)}
form{display:flex;flex-direction:column;gap:6px}
label{font-weight:600;font-size:.9rem;margin-top:10px}
input{font:inherit;padding:10px 12px;border:1px solid var(--field-line);border-radius:8px;background:var(--surface);color:inherit}
input:focus{outline:2px solid var(--brand);outline-offset:1px;border-color:var(--brand)}
button,.button{display:block;width:100%;margin-top:18px;padding:11px 16px;border:0;border-radius:8px;background:var(--brand-strong);color:var(--on-brand);font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
button:hover,.button:hover{background:var(--brand-stronger)}
.notice{margin:0 0 12px;padding:10px 12px;border-radius:8px;background:var(--notice-bg);border:1px solid var(--notice-line);color:var(--notice-ink)}
.error{margin:0 0 12px;padding:10px 12px;border-radius:8px;background:var(--error-bg);border:1px solid var(--error-line);color:var(--error-ink)}
.hint{margin:2px 0 0;font-size:.8rem;color:var(--muted)}
.switch{margin:16px 0 0;text-align:center;color:var(--muted)}
.switch a{color:var(--brand-strong);font-weight:600}
`;

export const SIGN_OUT_JS = `document.getElementById("op.logoutForm")?.submit();\n`;
