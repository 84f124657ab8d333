import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { escapeHtml } from "../mail/mail.js";

/** A certificate's size: the 1.91:1 image that link previews and social posts show whole. */
export const CERTIFICATE_WIDTH = 1200;
export const CERTIFICATE_HEIGHT = 630;

/** DejaVu Sans, shipped with the app (the `dejavu-fonts-ttf` package): a server may have no fonts. */
const fontDir = join(dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")), "ttf");
const FONT_FILES = [join(fontDir, "DejaVuSans.ttf"), join(fontDir, "DejaVuSans-Bold.ttf")];

export interface CertificateText {
  walkerName: string;
  challengeName: string;
  /** "123,456 steps" or "20 days of 10,000 steps". */
  achievement: string;
  /** "1 March 2026 to 31 March 2026". */
  dates: string;
  charityName: string | null;
  fundraisingUrl: string | null;
}

/** A line no wider than the card: longer text is cut with an ellipsis (the name is 80 characters at most). */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The certificate as SVG: the app's colours, every value escaped. */
export function certificateSvg(text: CertificateText): string {
  const line = (y: number, size: number, value: string, options: { bold?: boolean; fill?: string } = {}) =>
    `<text x="600" y="${y}" text-anchor="middle" font-family="DejaVu Sans" font-size="${size}"${
      options.bold ? ' font-weight="bold"' : ""
    } fill="${options.fill ?? "#0f172a"}">${escapeHtml(value)}</text>`;
  const lines = [
    line(110, 30, "CHARITY STEPS · CERTIFICATE OF COMPLETION", { bold: true, fill: "#0f766e" }),
    line(200, 34, "This is to certify that", { fill: "#475569" }),
    line(275, 58, clip(text.walkerName, 34), { bold: true }),
    line(340, 30, "completed the challenge", { fill: "#475569" }),
    line(400, 42, clip(text.challengeName, 44), { bold: true, fill: "#0f766e" }),
    line(460, 30, clip(`${text.achievement}, ${text.dates}`, 70)),
    ...(text.charityName
      ? [line(510, 28, clip(`Walking for ${text.charityName}`, 70), { fill: "#475569" })]
      : []),
    ...(text.fundraisingUrl
      ? [line(555, 22, clip(`Fundraising page: ${text.fundraisingUrl}`, 90), { fill: "#475569" })]
      : []),
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CERTIFICATE_WIDTH}" height="${CERTIFICATE_HEIGHT}" viewBox="0 0 ${CERTIFICATE_WIDTH} ${CERTIFICATE_HEIGHT}">
<rect width="1200" height="630" fill="#f8fafc"/>
<rect x="24" y="24" width="1152" height="582" rx="28" fill="#ffffff" stroke="#0f766e" stroke-width="6"/>
<rect x="44" y="44" width="1112" height="542" rx="18" fill="none" stroke="#99f6e4" stroke-width="2"/>
${lines.join("\n")}
</svg>`;
}

/**
 * The certificate as a PNG of CERTIFICATE_WIDTH × CERTIFICATE_HEIGHT. The renderer is loaded on the
 * first certificate: a native library that most processes never need.
 */
export async function certificatePng(text: CertificateText): Promise<Buffer> {
  const { Resvg } = await import("@resvg/resvg-js");
  const rendered = new Resvg(certificateSvg(text), {
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" },
    fitTo: { mode: "original" },
  }).render();
  return rendered.asPng();
}
