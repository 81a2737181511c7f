-- Whether a chat's language was chosen (/lang or its buttons) rather than taken from the user's
-- Telegram language code: only a language nobody chose follows the script the user writes in
-- (Uzbek in Cyrillic is answered in Cyrillic from the first message). Chats that exist already
-- count as chosen, as the bot cannot tell: nobody's language changes under them.
alter table chats add column lang_chosen boolean not null default true;
alter table chats alter column lang_chosen set default false;
