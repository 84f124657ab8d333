import type { Figure } from "./figure.js";

export const HEADER = ["figure", "value", "reference", "ratio", "budget", "result"];

function format(value: number | null | undefined, unit = ""): string {
  if (value === null || value === undefined) return "–";
  const shown =
    Number.isInteger(value) || Math.abs(value) >= 100 ? Math.round(value).toString() : value.toPrecision(3);
  return `${shown}${unit ? ` ${unit}` : ""}`;
}

/** One row per figure: the cells of HEADER. */
export function tableRows(figures: Figure[], quick: boolean): string[][] {
  const verdict = (pass: boolean | null) =>
    pass === null ? (quick ? "(quick)" : "–") : pass ? "pass" : "FAIL";
  return figures.map((figure) => [
    figure.name,
    format(figure.value, figure.unit),
    figure.reference
      ? `${figure.reference.name}: ${format(figure.reference.value, figure.reference.unit)}`
      : "",
    figure.ratio === undefined ? "" : `${(figure.ratio * 100).toFixed(0)}%`,
    figure.budget,
    verdict(figure.pass) + (figure.note ? ` (${figure.note})` : ""),
  ]);
}

export function markdownTable(rows: string[][]): string {
  return [
    `| ${HEADER.join(" | ")} |`,
    `| ${HEADER.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`),
  ].join("\n");
}
