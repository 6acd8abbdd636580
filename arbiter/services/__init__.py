"""The arbitration's services: ``rounds`` (the round lifecycle), ``slips`` (accepting slips),
``standings`` (reads), ``state`` (from stored rows to the engine)."""
