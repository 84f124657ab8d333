import { useCharityImpactText } from "../lib/charity-impact";

/** This month's walkers and steps for `charityName`, in one sentence; nothing until it is known. */
export function CharityImpactLine({
  charityName,
  className = "",
}: {
  charityName: string;
  className?: string;
}) {
  const text = useCharityImpactText(charityName);
  if (!text) return null;
  return (
    <p className={`text-sm ${className}`} data-testid="charity-impact">
      {text}
    </p>
  );
}
