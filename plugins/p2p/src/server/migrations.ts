/** The P2P market's tables (decision 1000). Amounts are bigint minor units (crypto) and cents (fiat). */
import { sqlStatements, type Migration } from "@wallet/kernel-server"

export const p2pMigrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "p2p: users, payment details, offers, orders",
    up: sqlStatements(
      `create table p2p_users (
        user_id bigint primary key,
        initialized_at timestamptz,
        experienced boolean not null default false,
        settings jsonb not null default '{}'::jsonb,
        created_at timestamptz not null
      )`,
      `create table p2p_user_stats (
        user_id bigint primary key,
        completed int not null default 0,
        failed int not null default 0
      )`,
      `create table p2p_payment_details (
        id bigserial primary key,
        user_id bigint not null,
        method text not null,
        fiat text not null,
        fields jsonb not null,
        deleted_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`,
      `create index p2p_payment_details_user on p2p_payment_details (user_id, id) where deleted_at is null`,
      `create table p2p_offers (
        id bigserial primary key,
        user_id bigint not null,
        type text not null check (type in ('SALE', 'PURCHASE')),
        status text not null check (status in ('ACTIVE', 'INACTIVE')),
        crypto text not null,
        fiat text not null,
        price_type text not null check (price_type in ('FIXED', 'FLOATING')),
        price_value bigint not null check (price_value > 0),
        volume bigint not null check (volume > 0),
        available bigint not null check (available >= 0 and available <= volume),
        escrow bigint not null default 0 check (escrow >= 0),
        refund_due boolean not null default false,
        min_fiat bigint not null,
        max_fiat bigint not null,
        methods jsonb not null,
        details_ids jsonb not null,
        payment_window int not null,
        terms text,
        auto_accept boolean not null,
        maker_fee_bps int not null,
        taker_fee_bps int not null,
        open_orders int not null default 0 check (open_orders >= 0),
        version int not null default 0,
        idempotency_key text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (user_id, idempotency_key)
      )`,
      `create index p2p_offers_market on p2p_offers (type, crypto, fiat, status, id)`,
      `create index p2p_offers_user on p2p_offers (user_id, id)`,
      `create table p2p_orders (
        id bigserial primary key,
        offer_id bigint not null references p2p_offers (id),
        offer_type text not null,
        maker_id bigint not null,
        taker_id bigint not null,
        buyer_id bigint not null,
        seller_id bigint not null,
        crypto text not null,
        fiat text not null,
        amount bigint not null check (amount > 0),
        hold_amount bigint not null,
        fiat_amount bigint not null,
        price_cents bigint not null,
        seller_fee bigint not null,
        buyer_fee bigint not null,
        usd_cents bigint,
        method text not null,
        payment_details jsonb,
        payment_window int not null,
        terms text,
        status text not null,
        hold_id bigint,
        deadline timestamptz,
        cancelled_by text,
        idempotency_key text not null,
        created_at timestamptz not null,
        accepted_at timestamptz,
        paid_at timestamptz,
        completed_at timestamptz,
        closed_at timestamptz,
        updated_at timestamptz not null,
        unique (taker_id, idempotency_key)
      )`,
      `create index p2p_orders_buyer on p2p_orders (buyer_id, id desc)`,
      `create index p2p_orders_seller on p2p_orders (seller_id, id desc)`,
      `create index p2p_orders_offer on p2p_orders (offer_id) where status in ('REQUESTED', 'ACCEPTED', 'PAID', 'IN_APPEAL')`,
      `create index p2p_orders_deadline on p2p_orders (deadline) where status in ('REQUESTED', 'ACCEPTED')`,
      `create table p2p_order_events (
        id bigserial primary key,
        order_id bigint not null,
        move text not null,
        by_user bigint,
        from_status text,
        to_status text not null,
        transaction_id bigint,
        at timestamptz not null
      )`,
      `create index p2p_order_events_order on p2p_order_events (order_id, id)`,
    ),
  },
  {
    id: 2,
    name: "p2p: appeals and their statements (issue 21)",
    up: sqlStatements(
      `create table p2p_appeals (
        order_id bigint primary key references p2p_orders (id),
        opened_by bigint not null,
        issue text not null,
        status text not null check (status in ('OPEN', 'RESOLVED')),
        outcome text check (outcome in ('BUYER', 'SELLER', 'SPLIT')),
        buyer_amount bigint,
        decided_by text,
        note text,
        opened_at timestamptz not null,
        decided_at timestamptz
      )`,
      `create index p2p_appeals_open on p2p_appeals (opened_at) where status = 'OPEN'`,
      `create table p2p_appeal_statements (
        id bigserial primary key,
        order_id bigint not null references p2p_orders (id),
        author text not null check (author in ('buyer', 'seller', 'support')),
        user_id bigint,
        text text not null,
        at timestamptz not null
      )`,
      `create index p2p_appeal_statements_order on p2p_appeal_statements (order_id, id)`,
    ),
  },
  {
    id: 3,
    name: "p2p: order chat, read marks, appeal receipts, notification settings (issue 21)",
    up: sqlStatements(
      `create table p2p_messages (
        id bigserial primary key,
        order_id bigint not null references p2p_orders (id),
        author_id bigint not null,
        text text,
        file_key text,
        file_mime text,
        file_size int,
        created_at timestamptz not null,
        check (text is not null or file_key is not null)
      )`,
      `create index p2p_messages_order on p2p_messages (order_id, id)`,
      `create table p2p_chat_reads (
        order_id bigint not null references p2p_orders (id),
        user_id bigint not null,
        last_read_id bigint not null,
        primary key (order_id, user_id)
      )`,
      `create table p2p_chat_pings (
        order_id bigint not null references p2p_orders (id),
        user_id bigint not null,
        sent_at timestamptz not null,
        primary key (order_id, user_id)
      )`,
      `create table p2p_appeal_files (
        id bigserial primary key,
        order_id bigint not null references p2p_orders (id),
        user_id bigint not null,
        statement_id bigint references p2p_appeal_statements (id),
        file_key text not null,
        file_mime text not null,
        file_size int not null,
        file_name text not null,
        created_at timestamptz not null
      )`,
      `create index p2p_appeal_files_order on p2p_appeal_files (order_id, id)`,
      `create table p2p_notify_settings (
        user_id bigint primary key,
        orders boolean not null default true,
        chat boolean not null default true,
        appeals boolean not null default true,
        updated_at timestamptz not null
      )`,
    ),
  },
  {
    id: 4,
    name: "p2p: reputation: who failed an order, feedback per side (issue 21)",
    up: sqlStatements(
      // Who let the order fail (cancelled, rejected, let it expire, lost the appeal); set by the move's conditional update.
      `alter table p2p_orders add column failed_by bigint`,
      // Orders closed before this migration, by the same rules as reputation.ts failedPartyOf.
      `update p2p_orders set failed_by = case
          when status = 'CANCELLED' and cancelled_by = 'buyer' then buyer_id
          when status = 'CANCELLED' and cancelled_by = 'seller' then seller_id
          when status = 'CANCELLED' and cancelled_by = 'support' then buyer_id
          when status = 'REJECTED' then maker_id
          when status = 'EXPIRED' and accepted_at is null then maker_id
          when status = 'EXPIRED' then buyer_id
        end
        where status in ('CANCELLED', 'REJECTED', 'EXPIRED')`,
      `update p2p_orders o set failed_by = o.seller_id from p2p_appeals a
        where a.order_id = o.id and o.status = 'COMPLETED' and a.outcome = 'BUYER' and a.decided_by is not null`,
      `create index p2p_orders_failed_by on p2p_orders (failed_by, closed_at) where failed_by is not null`,
      // The stats rank each pair's completed orders (anti-wash): by seller and buyer, then the other side.
      `create index p2p_orders_seller_done on p2p_orders (seller_id, buyer_id, completed_at) where status = 'COMPLETED'`,
      `create index p2p_orders_buyer_done on p2p_orders (buyer_id, seller_id, completed_at) where status = 'COMPLETED'`,
      `create table p2p_order_feedback (
        order_id bigint not null references p2p_orders (id),
        author_id bigint not null,
        target_id bigint not null,
        positive boolean not null,
        comment text,
        created_at timestamptz not null,
        primary key (order_id, author_id)
      )`,
      `create index p2p_order_feedback_target on p2p_order_feedback (target_id, created_at desc)`,
    ),
  },
  {
    id: 5,
    name: "p2p: trusted-merchant applications and order-history export links (issue 21)",
    up: sqlStatements(
      // One row per application; at most one PENDING or APPROVED per user. `facts` keeps the figures the user applied with.
      `create table p2p_merchant_applications (
        id bigserial primary key,
        user_id bigint not null,
        status text not null check (status in ('PENDING', 'APPROVED', 'REJECTED', 'REVOKED')),
        facts jsonb not null,
        reason text,
        decided_by text,
        created_at timestamptz not null,
        decided_at timestamptz
      )`,
      `create unique index p2p_merchant_applications_current on p2p_merchant_applications (user_id) where status in ('PENDING', 'APPROVED')`,
      `create index p2p_merchant_applications_user on p2p_merchant_applications (user_id, id desc)`,
      `create index p2p_merchant_applications_queue on p2p_merchant_applications (status, id)`,
      // A single-use download link: the token is stored only as its SHA-256; the CSV is dropped once served.
      `create table p2p_exports (
        token_hash text primary key,
        user_id bigint not null,
        period text not null,
        file_name text not null,
        orders int not null,
        content text,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      )`,
      `create index p2p_exports_user on p2p_exports (user_id, created_at desc)`,
    ),
  },
  {
    id: 6,
    name: "p2p: express requests (issue 21)",
    up: sqlStatements(
      `create table p2p_express_requests (
        id bigserial primary key,
        user_id bigint not null,
        side text not null check (side in ('SALE', 'PURCHASE')),
        crypto text not null,
        fiat text not null,
        calculation_type text not null check (calculation_type in ('BY_AMOUNT', 'BY_FIAT')),
        amount bigint not null check (amount > 0),
        price_cents bigint not null,
        status text not null check (status in ('SEARCHING', 'MATCHED', 'FAILED', 'CLOSED')),
        offer_id bigint references p2p_offers (id),
        order_id bigint references p2p_orders (id),
        failure text,
        idempotency_key text not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (user_id, idempotency_key)
      )`,
      // At most one current request per user: a second create meets this index and is refused.
      `create unique index p2p_express_requests_current on p2p_express_requests (user_id) where status in ('SEARCHING', 'MATCHED')`,
      `create index p2p_express_requests_user on p2p_express_requests (user_id, id desc)`,
    ),
  },
]
