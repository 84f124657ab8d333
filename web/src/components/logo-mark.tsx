/** The app's mark (a footprint with a heart), the same drawing as public/favicon.svg and the app icons. */
export function LogoMark({ className = "size-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={className}>
      <rect width="64" height="64" rx="14" fill="#0d9488" />
      <g transform="translate(-1.6 0.6)">
        <g fill="#fff">
          <path d="M33 23.5c6.6 0 10.4 4.6 10.2 10.6-.2 5.2-2.6 8.1-3.4 12.2-.8 4.6-3.3 8.2-7.6 8.2s-7.1-3.4-7.3-7.8c-.2-4.3-3.8-7-4-12.6-.2-6.2 4.3-10.6 12.1-10.6z" />
          <ellipse cx="22.4" cy="16.4" rx="4.3" ry="4.9" />
          <ellipse cx="30.2" cy="12.6" rx="3.4" ry="3.9" />
          <ellipse cx="36.8" cy="12.9" rx="3" ry="3.5" />
          <ellipse cx="42.4" cy="15.8" rx="2.7" ry="3.1" />
          <ellipse cx="46.4" cy="20.8" rx="2.4" ry="2.8" />
        </g>
        <path
          fill="#0d9488"
          d="M32.4 44.2c-.3 0-.6-.1-.8-.3-3-2.6-5.6-4.7-5.6-7.6 0-1.9 1.5-3.4 3.3-3.4 1.3 0 2.4.7 3.1 1.7.7-1 1.8-1.7 3.1-1.7 1.8 0 3.3 1.5 3.3 3.4 0 2.9-2.6 5-5.6 7.6-.2.2-.5.3-.8.3z"
        />
      </g>
    </svg>
  );
}
