-- A crawler process renews its leases (renewLeases, every third of the lease) and gives them back
-- when it stops (releaseLeases) by owner: without an index on the owner each renewal read the
-- whole frontier, which at 10 million URLs took seconds and held a process's leases at risk of
-- lapsing (docs/capacity.md, `pnpm bench frontier`). Only leased rows are in it, so it stays as
-- small as the URLs in flight.
CREATE INDEX frontier_leases_by_owner ON frontier (lease_owner) WHERE state = 'leased';
