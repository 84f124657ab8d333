import {
  BatteryCharging,
  Calculator,
  Check,
  Clock,
  Globe,
  Heart,
  Layers,
  type LucideIcon,
  Play,
  Search,
} from "lucide-react";
import type { ReactNode } from "react";

/*
 * Drawings of the Shortcuts app's action blocks, one per step of the guide. They show Apple's own
 * action and parameter names; the colours and shapes only resemble the app, so a walker recognises
 * the block without expecting a pixel-perfect screenshot. Every drawing is one image with a text
 * alternative that says what it shows.
 */

const WIDTH = 320;
const FONT_SIZE = 14;
const LINE_HEIGHT = 28;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const INK = "#1c1c1e";
const MUTED = "#8e8e93";
const BLUE = "#007aff";
const PILL = "#e5f0ff";
const CARD_LINE = "#d1d1d6";
const BACKGROUND = "#f2f2f7";

// A rough width per character, in ems, so segments can be placed one after another without measuring;
// each segment is then drawn at exactly that width (textLength), so no font can make them overlap.
function charEms(char: string): number {
  if (char === " ") return 0.28;
  if ("iljtf.,:;'|!I()[]".includes(char)) return 0.3;
  if ("r-".includes(char)) return 0.38;
  if ("mwMW@".includes(char)) return 0.86;
  if (/[A-Z0-9_]/.test(char)) return 0.64;
  return 0.55;
}

/** Bold glyphs are wider; `bold` widens the estimate to match. */
function textWidth(text: string, size = FONT_SIZE, bold = false): number {
  let ems = 0;
  for (const char of text) ems += charEms(char);
  return Math.ceil(ems * size * (bold ? 1.1 : 1));
}

/**
 * Plain words, a setting's label (grey), a parameter (blue, as the app shows one), a variable (a pill
 * with its action's icon) or typed text (monospace).
 */
type Part =
  | string
  | { label: string }
  | { param: string }
  | { variable: string; icon: LucideIcon; tile: string }
  | { mono: string; tone?: "param" | "muted" };

const GAP = 5;
const PILL_PADDING = 6;
const PILL_ICON = 16;

function partWidth(part: Part): number {
  if (typeof part === "string") return textWidth(part);
  if ("label" in part) return textWidth(part.label);
  if ("param" in part) return textWidth(part.param, FONT_SIZE, true);
  if ("mono" in part) return Math.ceil(part.mono.length * FONT_SIZE * 0.6);
  return PILL_PADDING * 2 + PILL_ICON + 4 + textWidth(part.variable, FONT_SIZE, true);
}

function Words({
  x,
  y,
  text,
  fill,
  weight,
  anchor,
}: {
  x: number;
  y: number;
  text: string;
  fill: string;
  weight?: number;
  anchor?: "middle";
}) {
  return (
    <text
      x={x}
      y={y}
      fill={fill}
      fontSize={FONT_SIZE}
      fontWeight={weight}
      textAnchor={anchor}
      textLength={textWidth(text, FONT_SIZE, (weight ?? 400) >= 600)}
      lengthAdjust="spacing"
    >
      {text}
    </text>
  );
}

function Segment({ part, x, baseline }: { part: Part; x: number; baseline: number }) {
  if (typeof part === "string") return <Words x={x} y={baseline} text={part} fill={INK} />;
  if ("label" in part) return <Words x={x} y={baseline} text={part.label} fill={MUTED} />;
  if ("param" in part) return <Words x={x} y={baseline} text={part.param} fill={BLUE} weight={600} />;
  if ("mono" in part) {
    return (
      <text
        x={x}
        y={baseline}
        fill={part.tone === "muted" ? MUTED : part.tone === "param" ? BLUE : INK}
        fontSize={FONT_SIZE}
        fontFamily="ui-monospace, SFMono-Regular, Menlo, monospace"
        textLength={partWidth(part)}
        lengthAdjust="spacing"
      >
        {part.mono}
      </text>
    );
  }
  const width = partWidth(part);
  const Icon = part.icon;
  return (
    <g>
      <rect x={x} y={baseline - 16} width={width} height={22} rx={6} fill={PILL} />
      <rect
        x={x + PILL_PADDING}
        y={baseline - 13}
        width={PILL_ICON}
        height={PILL_ICON}
        rx={4}
        fill={part.tile}
      />
      <Icon
        x={x + PILL_PADDING + 2}
        y={baseline - 11}
        width={12}
        height={12}
        color="white"
        strokeWidth={2.5}
      />
      <Words
        x={x + PILL_PADDING + PILL_ICON + 4}
        y={baseline}
        text={part.variable}
        fill={BLUE}
        weight={600}
      />
    </g>
  );
}

/** Lays `parts` out from (x, top), wrapping at `maxWidth`; returns the drawing and the height used. */
function sentence(
  parts: Part[],
  x: number,
  top: number,
  maxWidth: number,
): { node: ReactNode; height: number } {
  const placed: { part: Part; x: number; line: number }[] = [];
  let cursor = x;
  let line = 0;
  for (const part of parts) {
    const width = partWidth(part);
    if (cursor > x && cursor + width > x + maxWidth) {
      line += 1;
      cursor = x;
    }
    placed.push({ part, x: cursor, line });
    cursor += width + GAP;
  }
  return {
    node: placed.map(({ part, x: at, line: row }, index) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one drawing never move.
      <Segment key={index} part={part} x={at} baseline={top + 19 + row * LINE_HEIGHT} />
    )),
    height: (line + 1) * LINE_HEIGHT,
  };
}

function Tile({
  x,
  y,
  icon: Icon,
  fill,
  color = "white",
  size = 30,
}: {
  x: number;
  y: number;
  icon: LucideIcon;
  fill: string;
  color?: string;
  size?: number;
}) {
  const inset = size * 0.2;
  return (
    <g>
      <rect
        x={x}
        y={y}
        width={size}
        height={size}
        rx={size * 0.24}
        fill={fill}
        stroke={fill === "white" ? CARD_LINE : "none"}
      />
      <Icon
        x={x + inset}
        y={y + inset}
        width={size - inset * 2}
        height={size - inset * 2}
        color={color}
        strokeWidth={2.25}
      />
    </g>
  );
}

/** The drawing: one image with its text alternative, as wide as its column and never wider than a phone. */
function Picture({ label, height, children }: { label: string; height: number; children: ReactNode }) {
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${WIDTH} ${height}`}
      className="h-auto w-full max-w-sm"
      fontFamily={FONT}
      data-picture
    >
      <title>{label}</title>
      <rect width={WIDTH} height={height} rx={16} fill={BACKGROUND} />
      {children}
    </svg>
  );
}

const HEALTH = { icon: Heart, tile: "#ff2d55" } as const;
const STATISTICS = { icon: Calculator, tile: "#636366" } as const;

/** An action block: its app's tile, then its sentence, then any rows beneath (each a sentence too). */
function ActionPicture({
  label,
  tile,
  parts,
  rows = [],
}: {
  label: string;
  tile: { icon: LucideIcon; fill: string; color?: string };
  parts: Part[];
  rows?: { parts: Part[]; indent?: boolean }[];
}) {
  const top = 14;
  const textX = 62;
  // The first line sits level with the app's tile; the rows start below both.
  const head = sentence(parts, textX, top + 13, WIDTH - textX - 24);
  const headBottom = Math.max(top + 13 + head.height, top + 50);
  let y = headBottom + 4;
  const drawnRows = rows.map(({ parts: rowParts, indent }, index) => {
    const rowX = indent ? 40 : 28;
    const body = sentence(rowParts, rowX + 10, y, WIDTH - rowX - 44);
    const node = (
      // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one drawing never move.
      <g key={index}>
        <rect
          x={rowX}
          y={y + 2}
          width={WIDTH - rowX - 28}
          height={body.height - 4}
          rx={8}
          fill="white"
          stroke={CARD_LINE}
        />
        {body.node}
      </g>
    );
    y += body.height + 4;
    return node;
  });
  const cardHeight = y - top + 10;
  return (
    <Picture label={label} height={cardHeight + top * 2}>
      <rect x={12} y={top} width={WIDTH - 24} height={cardHeight} rx={14} fill="white" stroke={CARD_LINE} />
      <Tile x={24} y={top + 12} icon={tile.icon} fill={tile.fill} color={tile.color} />
      {head.node}
      {drawnRows.length > 0 && (
        <rect x={24} y={headBottom + 1} width={WIDTH - 48} height={1} fill="#e5e5ea" />
      )}
      {drawnRows}
    </Picture>
  );
}

/** Step 1: a new shortcut, named, with "Find Health Samples" typed into the action search. */
export function NewShortcutPicture({ shortcutName }: { shortcutName: string }) {
  return (
    <Picture
      label={`A new shortcut named “${shortcutName}”, with “Find Health Samples” typed into the search for actions`}
      height={176}
    >
      <Tile x={20} y={18} icon={Layers} fill="#5e5ce6" size={34} />
      <text
        x={66}
        y={41}
        fontSize={17}
        fontWeight={700}
        fill={INK}
        textLength={textWidth(shortcutName, 17)}
        lengthAdjust="spacing"
      >
        {shortcutName}
      </text>
      <rect x={20} y={70} width={WIDTH - 40} height={38} rx={10} fill="#e3e3e8" />
      <Search x={32} y={80} width={18} height={18} color={MUTED} strokeWidth={2.25} />
      <Words x={58} y={94} text="Find Health Samples" fill={INK} />
      <rect x={20} y={118} width={WIDTH - 40} height={44} rx={10} fill="white" stroke={CARD_LINE} />
      <Tile x={30} y={126} icon={Heart} fill="white" color="#ff2d55" size={28} />
      <Words x={68} y={145} text="Find Health Samples" fill={INK} weight={600} />
    </Picture>
  );
}

/** Step 2: Find Health Samples, Type is Steps, Start Date is today, grouped by day. */
export function FindHealthSamplesPicture() {
  return (
    <ActionPicture
      label="The Find Health Samples action: Find Health Samples where Type is Steps and Start Date is today; Group By Day; Sort by None; Limit off"
      tile={{ icon: Heart, fill: "white", color: "#ff2d55" }}
      parts={["Find", { param: "Health Samples" }, "where"]}
      rows={[
        { parts: [{ param: "Type" }, "is", { param: "Steps" }] },
        { parts: [{ param: "Start Date" }, "is", { param: "today" }] },
        { parts: [{ label: "Group By" }, { param: "Day" }] },
        { parts: [{ label: "Sort by" }, { param: "None" }] },
        { parts: [{ label: "Limit" }, { param: "off" }] },
      ]}
    />
  );
}

/** Step 3: Calculate Statistics set to Sum of the Health Samples. */
export function CalculateStatisticsPicture() {
  return (
    <ActionPicture
      label="The Calculate Statistics action: Calculate Sum of Health Samples"
      tile={{ icon: Calculator, fill: STATISTICS.tile }}
      parts={["Calculate", { param: "Sum" }, "of", { variable: "Health Samples", ...HEALTH }]}
    />
  );
}

/** Shortens the middle of a long address so the block stays readable on a phone. */
function shortUrl(url: string): string {
  const bare = url.replace(/^https?:\/\//, "");
  return bare.length <= 26 ? bare : `${bare.slice(0, 11)}…${bare.slice(-14)}`;
}

/** Step 4: Get Contents of URL with POST, the Authorization header and a JSON body. */
export function GetContentsOfUrlPicture({ importUrl, keyHint }: { importUrl: string; keyHint: string }) {
  return (
    <ActionPicture
      label={`The Get Contents of URL action: Get contents of ${importUrl}; Method POST; Headers: Authorization is Bearer followed by your key; Request Body JSON with a Number field named steps set to Statistics`}
      tile={{ icon: Globe, fill: "#0a84ff" }}
      parts={["Get contents of", { param: shortUrl(importUrl) }]}
      rows={[
        { parts: [{ label: "Method" }, { param: "POST" }] },
        { parts: [{ label: "Headers" }] },
        { parts: [{ mono: "Authorization" }, { mono: `Bearer ${keyHint}`, tone: "param" }], indent: true },
        { parts: [{ label: "Request Body" }, { param: "JSON" }] },
        {
          parts: [{ mono: "steps" }, { label: "Number" }, { variable: "Statistics", ...STATISTICS }],
          indent: true,
        },
      ]}
    />
  );
}

/** Step 5: the play button that runs the shortcut, and Health's question. */
export function RunShortcutPicture({ shortcutName }: { shortcutName: string }) {
  return (
    <Picture
      label={`Running “${shortcutName}” with the play button, and the question asking to allow access, answered with Always Allow`}
      height={190}
    >
      <rect x={20} y={16} width={WIDTH - 40} height={112} rx={14} fill="white" stroke={CARD_LINE} />
      <Words x={36} y={44} text="Allow this shortcut" fill={INK} weight={600} />
      <Words x={36} y={64} text="to read Health and send data?" fill={MUTED} />
      <rect x={20} y={76} width={WIDTH - 40} height={1} fill="#e5e5ea" />
      <Words x={WIDTH / 2 - 96} y={106} text="Allow Once" fill={BLUE} anchor="middle" />
      <rect x={WIDTH / 2 - 50} y={86} width={100} height={30} rx={8} fill={PILL} />
      <Words x={WIDTH / 2} y={106} text="Always Allow" fill={BLUE} weight={700} anchor="middle" />
      <Words x={WIDTH / 2 + 96} y={106} text="Don't Allow" fill={BLUE} anchor="middle" />
      <rect x={20} y={140} width={WIDTH - 40} height={38} rx={12} fill="white" stroke={CARD_LINE} />
      <Words x={36} y={164} text="Tap the play button to run" fill={MUTED} />
      <circle cx={WIDTH - 46} cy={159} r={14} fill={BLUE} />
      <Play x={WIDTH - 53} y={152} width={14} height={14} color="white" fill="white" strokeWidth={2} />
    </Picture>
  );
}

/** An automation: its trigger, Run Immediately ticked, and the shortcut it runs. */
function AutomationPicture({
  label,
  trigger,
  triggerTile,
  detail,
  shortcutName,
}: {
  label: string;
  trigger: string;
  triggerTile: { icon: LucideIcon; fill: string };
  detail: string;
  shortcutName: string;
}) {
  return (
    <Picture label={label} height={214}>
      <Words x={24} y={30} text="When" fill={MUTED} weight={600} />
      <rect x={12} y={38} width={WIDTH - 24} height={52} rx={12} fill="white" stroke={CARD_LINE} />
      <Tile x={24} y={49} icon={triggerTile.icon} fill={triggerTile.fill} />
      <Words x={64} y={61} text={trigger} fill={INK} weight={600} />
      <Words x={64} y={80} text={detail} fill={BLUE} weight={600} />
      <rect x={12} y={98} width={WIDTH - 24} height={38} rx={12} fill="white" stroke={CARD_LINE} />
      <Words x={28} y={122} text="Run Immediately" fill={INK} />
      <Check x={WIDTH - 46} y={108} width={18} height={18} color={BLUE} strokeWidth={3} />
      <Words x={24} y={162} text="Do" fill={MUTED} weight={600} />
      <rect x={12} y={170} width={WIDTH - 24} height={34} rx={12} fill="white" stroke={CARD_LINE} />
      <Tile x={22} y={175} icon={Layers} fill="#5e5ce6" size={24} />
      <Words x={56} y={192} text={shortcutName} fill={INK} weight={600} />
    </Picture>
  );
}

/** Step 6: the evening automation. */
export function TimeOfDayPicture({ shortcutName, time }: { shortcutName: string; time: string }) {
  return (
    <AutomationPicture
      label={`A personal automation: when Time of Day is ${time}, daily, Run Immediately, do “${shortcutName}”`}
      trigger="Time of Day"
      triggerTile={{ icon: Clock, fill: "#0a84ff" }}
      detail={`${time}, Daily`}
      shortcutName={shortcutName}
    />
  );
}

/** Step 7: the automation that runs when the phone starts charging. */
export function ChargerPicture({ shortcutName }: { shortcutName: string }) {
  return (
    <AutomationPicture
      label={`A personal automation: when Charger Is Connected, Run Immediately, do “${shortcutName}”`}
      trigger="Charger"
      triggerTile={{ icon: BatteryCharging, fill: "#34c759" }}
      detail="Is Connected"
      shortcutName={shortcutName}
    />
  );
}
