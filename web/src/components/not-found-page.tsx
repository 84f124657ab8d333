import { Link } from "react-router-dom";
import { paths } from "../lib/paths";

export function NotFoundPage() {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <section className="card p-6 text-center">
        <h1 className="text-2xl font-bold tracking-tight">404 Page Not Found</h1>
        <p className="mt-2 text-muted">There is no page at this address.</p>
        <Link to={paths.home} className="btn-secondary mt-6">
          Go to the home page
        </Link>
      </section>
    </div>
  );
}
