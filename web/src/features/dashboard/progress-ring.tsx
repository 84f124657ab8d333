import type { ReactNode } from "react";

/**
 * A circular progress ring: the share of `goal` reached, full at 100%. A progress bar's content is
 * not read out, so `valueText` is what a screen reader says for it (instead of a bare percentage).
 */
export function ProgressRing({
  value,
  goal,
  size = 176,
  label,
  valueText,
  children,
}: {
  value: number;
  goal: number;
  size?: number;
  label: string;
  valueText: string;
  children?: ReactNode;
}) {
  const stroke = 14;
  const radius = (size - stroke) / 2;
  const circumference = 2 * Math.PI * radius;
  const share = goal > 0 ? Math.min(1, Math.max(0, value / goal)) : 0;
  return (
    <div
      className="relative mx-auto"
      style={{ width: size, height: size }}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={goal}
      aria-valuenow={Math.min(value, goal)}
      aria-valuetext={valueText}
    >
      <svg
        width={size}
        height={size}
        viewBox={`0 0 ${size} ${size}`}
        className="-rotate-90"
        aria-hidden="true"
      >
        <circle
          cx={size / 2}
          cy={size / 2}
          r={radius}
          fill="none"
          stroke="var(--color-line)"
          strokeWidth={stroke}
        />
        <circle
          cx={size / 2}
          cy={size / 2}
          r={radius}
          fill="none"
          stroke="var(--color-brand)"
          strokeWidth={stroke}
          strokeLinecap="round"
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - share)}
          className="transition-[stroke-dashoffset] duration-500 motion-reduce:transition-none"
        />
      </svg>
      <div className="absolute inset-0 flex flex-col items-center justify-center text-center">{children}</div>
    </div>
  );
}
