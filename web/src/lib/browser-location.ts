/**
 * Full-page navigation away from the app (sign-in and sign-out are server routes). One seam so tests
 * can observe it: jsdom cannot navigate.
 */
export function navigateTo(url: string): void {
  window.location.href = url;
}

export function reloadPage(): void {
  window.location.reload();
}
