/** The three charities a walker can support in the beta. */
export const CHARITIES = [
  {
    name: "Cancer Research UK",
    description:
      "The world's largest independent cancer research charity, funding scientists, doctors and nurses to beat cancer.",
    focus: "Cancer research and treatment",
  },
  {
    name: "Crohn's & Colitis UK",
    description:
      "The UK's leading charity for Crohn's Disease and Ulcerative Colitis, funding research and supporting everyone affected.",
    focus: "Inflammatory bowel disease support and research",
  },
  {
    name: "British Heart Foundation",
    description:
      "Funding research into heart and circulatory diseases and the risk factors behind them, to save and improve lives.",
    focus: "Heart and circulatory disease research",
  },
] as const;

export type Charity = (typeof CHARITIES)[number];
export type CharityName = Charity["name"];
export const CHARITY_NAMES: readonly CharityName[] = CHARITIES.map((charity) => charity.name);
