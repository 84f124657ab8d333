import { registerApiCache } from "./api-cache";
import { registerUpdateMessages } from "./messages";
import { registerNavigationFallback } from "./navigation";
import { registerPrecache } from "./precache";
import { registerPush } from "./push";
import { registerStepSync } from "./step-sync";

// Order matters: the precache route must be registered before the navigation fallback that reads it.
registerPrecache();
registerNavigationFallback();
registerApiCache();
registerUpdateMessages();
registerStepSync();
registerPush();
