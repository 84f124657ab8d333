import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { PHOTOS_BUSY_MESSAGE, PhotosBusyError } from "../../src/images/proof-photo.js";
import { errorsPlugin, SERVER_ERROR_MESSAGE } from "../../src/plugins/errors.js";
import { logCapture } from "../support/smtp-server.js";

/** The error handler alone, its log kept: an operator watches the error level for faults. */
async function appThrowing(error: Error) {
  const capture = logCapture();
  const app = Fastify({ logger: { level: "info", stream: capture.stream } });
  await app.register(errorsPlugin);
  app.get("/", async () => {
    throw error;
  });
  const response = await app.inject({ method: "GET", url: "/" });
  await app.close();
  const levels = capture.lines.filter((line) => line.status || line.err).map((line) => line.level);
  return { response, levels };
}

describe("the error handler's log", () => {
  it("logs a busy answer (503, come back later) as a warning, not an error, with its sentence", async () => {
    const { response, levels } = await appThrowing(new PhotosBusyError());
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ message: PHOTOS_BUSY_MESSAGE });
    expect(levels).toEqual([40]);
  });

  it("logs a 503 that is no busy answer (a beacon misconfigured, say) as an error", async () => {
    const { response, levels } = await appThrowing(
      new AppError(503, "The draw's beacon could not be reached."),
    );
    expect(response.statusCode).toBe(503);
    expect(levels).toEqual([50]);
  });

  it("logs a fault as an error, and shows the caller nothing of it", async () => {
    const { response, levels } = await appThrowing(new Error("connection to the database lost"));
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: SERVER_ERROR_MESSAGE });
    expect(levels).toEqual([50]);
  });
});
