import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { createSignedInWalker } from "../helper.js";
import { stepsClient } from "./steps.js";

type Call = Promise<LightMyRequestResponse>;

export interface GroupsWalker extends Awaited<ReturnType<typeof createSignedInWalker>> {
  api: ReturnType<typeof stepsClient> & {
    delete(url: string): Call;
    createGroup(name: string, description?: string): Call;
    join(joinCode: string): Call;
  };
}

/** A signed-in walker with the API calls the groups screens make. */
export async function groupsWalker(app: FastifyInstance, name = "Test"): Promise<GroupsWalker> {
  const walker = await createSignedInWalker(app, name);
  const api = stepsClient(app, walker.cookie);
  return {
    ...walker,
    api: {
      ...api,
      delete: (url) => app.inject({ method: "DELETE", url, headers: { cookie: walker.cookie } }),
      createGroup: (name, description) =>
        api.post("/api/groups", description === undefined ? { name } : { name, description }),
      join: (joinCode) => api.post("/api/groups/join", { joinCode }),
    },
  };
}
