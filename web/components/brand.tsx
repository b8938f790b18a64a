/** The product's name as the header and the sign-in screens show it. */
export function Brand() {
  return (
    <span className="text-lg font-bold tracking-tight">
      <span className="text-primary">Call</span>
      <span>CRM</span>
    </span>
  );
}
