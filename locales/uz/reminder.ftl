reminder-title = Eslatma
reminder-due = Muddat: { $when }
reminder-late = { $late } kechikib yuborildi: bot uni o'z vaqtida yubora olmadi.
button-done = ✅ Bajarildi
button-snooze-10m = 10 daqiqa
button-snooze-1h = 1 soat
button-snooze-tomorrow = Ertaga ertalab
button-snooze-custom = Boshqa vaqt…
button-keep-reminding = 🔁 Eslatib turish
nag-note = 🔁 { $max } tadan { $n }-eslatma; keyingisi { $every }dan keyin, vazifa bajarilmaguncha.
nag-last = 🔁 { $max } tadan { $n }-eslatma, oxirgisi: endi takrorlamayman.
quote-media = { $kind ->
    [photo] 📷 Rasm
    [video] 🎬 Video
    [document] 📄 Fayl
    [voice] 🎤 Ovozli xabar
    [audio] 🎵 Audio
    [sticker] Stiker
    [animation] GIF
    [video_note] Video xabar
    [location] 📍 Joylashuv
    [contact] 👤 Kontakt
    [poll] 📊 So'rovnoma
   *[other] 💬 Xabar
}
series-last = 🏁 Bu takrorning oxirgisi: boshqa eslatma bo'lmaydi.
button-pause = ⏸ Takrorni to'xtatish
series-repeats = 🔁 { $rule }
series-next = 🔁 { $rule } · keyingisi: { $when }
