import { LOGOUT_PATH } from "@charity-steps/shared-types";

/**
 * Asked when a sign-out comes from a link on another site: a page of this origin whose button posts
 * the sign-out itself, so another site can take a walker this far but no further. Nothing in it
 * comes from the request. Styled inline (the CSP allows inline styles, never inline script), in
 * the app's colours (the button the darker teal, for contrast with its white text), so that it
 * needs nothing that only the built-in provider serves.
 */
export const SIGN_OUT_CONFIRMATION_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#0d9488">
<title>Sign out? · Charity Steps</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f0fdfa;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#134e4a}
main{background:#fff;border-radius:1rem;box-shadow:0 4px 24px rgb(0 0 0 / 8%);padding:2rem;max-width:22rem;width:calc(100% - 3rem)}
h1{margin:0 0 .5rem;font-size:1.5rem}
p{margin:0 0 1.5rem;line-height:1.5}
button,a{display:block;box-sizing:border-box;width:100%;padding:.75rem 1rem;border-radius:.75rem;font:inherit;font-weight:600;text-align:center;text-decoration:none}
button{border:0;background:#0f766e;color:#fff;cursor:pointer}
button:hover{background:#115e59}
a{margin-top:.75rem;border:1px solid #99f6e4;color:#0f766e}
</style>
</head>
<body>
<main>
<h1>Sign out of Charity Steps?</h1>
<p>A link on another site asked to sign you out. Your steps are kept either way.</p>
<form method="post" action="${LOGOUT_PATH}">
<button type="submit">Sign out</button>
</form>
<a href="/">Stay signed in</a>
</main>
</body>
</html>
`;
