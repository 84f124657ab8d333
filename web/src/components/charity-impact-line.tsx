import { useCharityImpactText } from "../lib/charity-impact";

/** This month's walkers and steps for `charityName`, in one sentence; nothing shown until it is known. */
export function CharityImpactLine({
  charityName,
  className = "",
}: {
  charityName: string;
  className?: string;
}) {
  const text = useCharityImpactText(charityName);
  // Until known, an empty line that takes no room: the landing page's HTML, drawn before any
  // month's numbers, fills it from its own script (landing-script.ts).
  return (
    <p
      hidden={!text}
      className={`text-sm ${className}`}
      data-charity-impact-for={charityName}
      data-testid={text ? "charity-impact" : undefined}
    >
      {text}
    </p>
  );
}
