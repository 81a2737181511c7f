reminder-title = Reminder
reminder-due = Due { $when }
reminder-late = Late by { $late }: the bot could not send it on time.
button-done = ✅ Done
button-snooze-10m = 10 min
button-snooze-1h = 1 hour
button-snooze-tomorrow = Tomorrow morning
button-snooze-custom = Other time…
button-keep-reminding = 🔁 Keep reminding
nag-note = 🔁 Reminder { $n } of { $max }; the next one in { $every }, until it is done.
nag-last = 🔁 Reminder { $n } of { $max }, the last one: I will not repeat it again.
quote-media = { $kind ->
    [photo] 📷 Photo
    [video] 🎬 Video
    [document] 📄 File
    [voice] 🎤 Voice message
    [audio] 🎵 Audio
    [sticker] Sticker
    [animation] GIF
    [video_note] Video message
    [location] 📍 Location
    [contact] 👤 Contact
    [poll] 📊 Poll
   *[other] 💬 Message
}
series-last = 🏁 The last one of this series: no more will follow.
button-pause = ⏸ Pause repeat
series-repeats = 🔁 { $rule }
series-next = 🔁 { $rule } · next: { $when }
