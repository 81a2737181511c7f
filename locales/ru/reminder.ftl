reminder-title = Напоминание
reminder-due = Срок: { $when }
reminder-late = С опозданием на { $late }: бот не смог отправить вовремя.
button-done = ✅ Готово
button-snooze-10m = 10 мин
button-snooze-1h = 1 час
button-snooze-tomorrow = Завтра утром
button-snooze-custom = Другое время…
button-keep-reminding = 🔁 Напоминать ещё
nag-note = 🔁 Напоминание { $n } из { $max }; следующее через { $every }, пока задача не сделана.
nag-last = 🔁 Напоминание { $n } из { $max }, последнее: больше не повторю.
quote-media = { $kind ->
    [photo] 📷 Фото
    [video] 🎬 Видео
    [document] 📄 Файл
    [voice] 🎤 Голосовое сообщение
    [audio] 🎵 Аудио
    [sticker] Стикер
    [animation] GIF
    [video_note] Видеосообщение
    [location] 📍 Геопозиция
    [contact] 👤 Контакт
    [poll] 📊 Опрос
   *[other] 💬 Сообщение
}
series-last = 🏁 Последнее в этом повторе: больше напоминаний не будет.
button-pause = ⏸ Приостановить повтор
series-repeats = 🔁 { $rule }
series-next = 🔁 { $rule } · следующее: { $when }
