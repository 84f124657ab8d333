// The entry of the landing page's HTML, as the server sends it to a browser with no session.
import { startLandingPage } from "./features/landing/landing-script";

void startLandingPage();
