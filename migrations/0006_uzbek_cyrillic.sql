-- Uzbek in the Cyrillic script: a chat's language may be 'uz-Cyrl' (the bot answers it in Uzbek
-- written in Cyrillic). The check on chats.lang is widened, nothing else changes: every value the
-- previous release writes or reads is still allowed (expand-only).
alter table chats drop constraint if exists chats_lang_check;
alter table chats add constraint chats_lang_check
    check (lang in ('en', 'ru', 'uz', 'uz-Cyrl'));
