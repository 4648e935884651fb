/** The TON space's tables (all prefixed `ton_space_`). */
import { sqlStatements, type Migration } from "@wallet/kernel-server"

export const tonSpaceMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "self-custody addresses with the manual backup flag",
    up: sqlStatements(
      // One owner per raw address; `tracked` false after logout (another user may then claim it).
      `create table ton_space_addresses (
        raw text primary key,
        user_id bigint not null,
        wallet_class text,
        network text not null check (network in ('mainnet', 'testnet')),
        source text not null check (source in ('create', 'import', 'claim')),
        tracked boolean not null,
        backed_up_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`,
      `create index ton_space_addresses_user on ton_space_addresses (user_id, created_at)`,
    ),
  },
]
