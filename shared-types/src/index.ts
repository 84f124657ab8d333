export * from "./auth.js";
export * from "./charity.js";
export * from "./constants.js";
export * from "./dates.js";
export * from "./errors.js";
export * from "./health.js";
export * from "./pricing.js";
export * from "./prizes.js";
