/** What is wrong with a form, read out at once (role="alert"); nothing while there is no problem. */
export function FormProblem({ id, problem }: { id: string; problem: string | null }) {
  if (!problem) return null;
  return (
    <p id={id} role="alert" className="text-sm text-destructive">
      {problem}
    </p>
  );
}
