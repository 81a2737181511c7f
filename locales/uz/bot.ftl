cmd-start = Boshlash va vaqt mintaqasini tanlash
cmd-add = Vazifa qo'shish: /add matn vaqt
cmd-list = Navbatdagi vazifalaringiz
cmd-done = Vazifani bajarilgan deb belgilash: /done raqam
cmd-delete = Vazifani o'chirish: /delete raqam
cmd-settings = Odatda qancha oldin eslatish
cmd-lang = Tilni o'zgartirish
cmd-tz = Vaqt mintaqasini o'zgartirish
cmd-help = Men nimalar qila olaman
start-welcome = Salom! Men vazifalaringizni vaqtida eslatib turaman. Nimani va qachon eslatish kerakligini yozing.
tz-ask = Qaysi vaqt mintaqasidasiz? Tugmani bosing yoki shahar nomini, IANA nomini yoki UTC dan farqini (masalan, +5) yozing.
tz-example = Toshkent
tz-set = Vaqt mintaqasi: { $tz }. Sizda hozir { $now }.
tz-unknown = Bunday vaqt mintaqasini bilmayman. Shahar nomini, IANA nomini yoki UTC dan farqini (masalan, +5) yozing.
tz-offset-range = UTC dan bunday farq Yer yuzining hech bir joyida yo'q: farq -12 dan +14 gacha bo'ladi.
lang-ask = Tilni tanlang:
lang-set = Endi o'zbek tilida gaplashaman.
lang-unknown = Bu tilni bilmayman. Men ingliz, rus va o'zbek tillarida gaplashaman.
help-title = Mendan qanday foydalaniladi
help-add = Vazifani vaqti bilan yozing — vaqt matndan oldin ham, keyin ham kelishi mumkin:
help-lead = Muddatdan oldinroq eslatish:
help-repeat = Takrorlanadigan vazifalar:
help-commands = /list — vazifalaringiz ro'yxati; /done 12 — 12-vazifani bajarilgan deb belgilaydi, /delete 12 — uni o'chiradi; /cancel — bergan savolimni yopadi; /settings — odatda qancha oldin eslatishni belgilaydi; /tz va /lang — vaqt mintaqasi va tilni o'zgartiradi.
add-example = ertaga soat 9:00 da ijara to'lash
lead-example = juma soat 15:00 da uchrashuv 30 daqiqa oldin
repeat-example = har dushanba soat 10:00 da yig'ilish
when-example = ertaga 9:00
settings-current = Yangi vazifalar haqida eslatma: { $lead }.
settings-usage = O'zgartirish uchun /settings buyrug'ini vaqt bilan yuboring. Muddatning o'zida eslatishim uchun /settings 0 yuboring.
settings-example = /settings 30 daqiqa
settings-set = Endi yangi vazifalar haqida eslatma: { $lead }.
settings-bad = Bu vaqtni tushunmadim.
task-saved = Vazifa saqlandi
task-changed = Vazifa o'zgartirildi
task-due = Muddat: { $when }
task-remind = Eslatma: { $when }
task-repeats = Takror: { $rule }
task-paused = To'xtatib turilgan: davom ettirmaguningizcha eslatma bo'lmaydi (/resume { $id }).
repeat-daily = har kuni
repeat-weekdays = ish kunlari
repeat-monthly = har oyning { $day }-kuni
button-undo = ↩️ Qaytarish
button-change-time = 🕒 Vaqtni o'zgartirish
button-open-app = 📱 Ilovani ochish
button-edit = ✏️ O'zgartirish
button-delete = 🗑 O'chirish
button-snooze = 💤 Keyinroq
button-prev = ◀️ Orqaga
button-next = Keyingi ▶️
ask-when = Bu vazifani qachon eslatay?
ask-snooze = Qachon yana eslatay?
snooze-example = 30 daqiqadan keyin
ask-edit = Nimani o'zgartiramiz? Vaqtni, kunni yoki yangi matnni yuboring — qolgani o'zgarmaydi.
list-title = Sizda { $count } ta ochiq vazifa bor
list-empty = Ochiq vazifalaringiz yo'q. Qo'shish uchun vazifani vaqti bilan yozing.
list-page = { $page }-sahifa, jami { $pages } ta
done-ok = Bajarildi: { $text }
done-next = Bajarildi. Keyingi safar: { $when }
deleted = O'chirildi: { $text }
undone = Bekor qilindi, vazifa o'chirildi: { $text }
snoozed = Yana eslataman: { $when }.
callback-done = Bajarildi ✅
callback-deleted = O'chirildi
callback-snoozed = Keyinga qoldirildi
not-found = Vazifa topilmadi. /list vazifalaringizni ko'rsatadi.
stale-button = Bu tugma endi ishlamaydi.
not-allowed-task = Vazifani faqat uning muallifi yoki guruh administratori o'zgartira oladi.
not-allowed-settings = Guruh sozlamalarini faqat guruh administratori o'zgartira oladi.
id-usage = Qaysi vazifa? Uning /list ro'yxatidagi raqamini yuboring.
id-example-done = /done 12
id-example-delete = /delete 12
rate-limited = Xabarlar juda ko'payib ketdi. Bir daqiqa kutib, qaytadan urinib ko'ring.
too-many-tasks = Sizda allaqachon { $max } ta ochiq vazifa bor, bu eng ko'pi. Avval ba'zilarini bajaring yoki o'chiring (/list).
err-empty = Xabar bo'sh. Vazifa va vaqtini yozing.
err-too-long = Xabar juda uzun: ko'pi bilan { $max } belgi.
err-text-too-long = Vazifa matni juda uzun: { $len } belgi, ko'pi bilan { $max }.
err-no-text = Nimani eslatay? Vazifani vaqti bilan birga yozing.
err-no-time = Xabarda vaqt topilmadi.
err-invalid-time = { $time } degan vaqt bo'lmaydi: soat 0 dan 23 gacha, daqiqa 0 dan 59 gacha bo'ladi.
err-invalid-date = { $date } degan sana kalendarda yo'q.
err-invalid-day = Hech bir oyda { $day }-kun bo'lmaydi.
err-past = Bu vaqt allaqachon o'tib ketgan: { $when }.
err-too-far = Faqat { $year }-yil oxirigacha bo'lgan sanalarni qabul qilaman.
err-lead-too-long = Eslatma muddatdan ko'pi bilan { $days } kun oldin kelishi mumkin.
err-repeat-too-often = Vazifani eng tez-tez har { $min } daqiqada takrorlay olaman. Bajarilmaguncha qayta-qayta eslatishimni istasangiz, vazifaga «bajarilmaguncha» deb qo'shing.
err-ends-before-first = Bu takror birinchi marta kelishidan oldin tugaydi ({ $when }). Tugashini keyinroq qilib yuboring.
err-internal = Men tomonda xatolik yuz berdi. Hech narsa yo'qolmadi, qaytadan urinib ko'ring.
example-label = Masalan:
unknown-command = Bunday buyruqni bilmayman. Nimalar qila olishimni /help ko'rsatadi.
lang-example = /lang ru
cmd-cancel = Bergan savolimni bekor qilish
edit-example = juma 19:00
ask-when-still = Buni alohida vazifa qilib saqladim. Bu vazifani esa qachon eslatay?
task-remind-clamped = Eslatma: { $when }, { $lead } emas: u vaqt allaqachon o'tib ketgan.
task-remind-sent = Eslatma: allaqachon yuborilgan
task-overdue = Muddati o'tib ketgan, eslatma kelmaydi. Eslatma olish uchun «Vaqtni o'zgartirish» tugmasini bosing.
undo-edit-title = O'zgarish bekor qilindi
undo-done-title = Vazifa qayta ochildi
undo-delete-title = Vazifa tiklandi
undo-used = Bu allaqachon bekor qilingan.
undo-outdated = Buni endi bekor qilib bo'lmaydi: vazifa o'shandan beri o'zgargan.
callback-undone = Bekor qilindi
callback-cancelled = Bekor qilindi
button-cancel = ✖️ Bekor qilish
cancel-nothing = Bekor qiladigan narsa yo'q: men hech narsa so'ramagandim.
cancel-dropped = Bekor qilindi: “{ $text }” saqlanmadi.
cancel-edit = Bekor qilindi: #{ $id } vazifa avvalgidek qoldi.
cancel-snooze = Bekor qilindi: #{ $id } vazifaning eslatmalari avvalgidek qoldi.
cancel-zone = Bekor qilindi: vaqt mintaqasi avvalgidek qoldi.
cancel-zone-none = Bekor qilindi. Vazifalarni saqlashim uchun vaqt mintaqangizni bilishim kerak: tayyor bo'lganingizda /tz yuboring.
list-overdue = { $when }, muddati o'tgan
list-remind = eslatma { $when }
list-paused = to'xtatib turilgan
help-relative = Yoki biror vaqtdan keyin:
relative-example = 2 soatdan keyin onamga qo'ng'iroq qilish
help-buttons = Har bir vazifa ostida: ↩️ «Qaytarish» hozirgina qilgan ishingizni qaytaradi («Bajarildi» va o'chirishdan keyin ham); 🕒 «Vaqtni o'zgartirish» yangi vaqt, kun yoki matnni so'raydi, qolganini o'zgartirmaydi. Eslatma ostida: 💤 uni 10 daqiqaga, bir soatga, ertaga ertalabgacha yoki boshqa vaqtga qoldiring.
cmd-agenda = Har tong kun vazifalari: /agenda 8:00
agenda-title = { $day }: bugungi vazifalar
agenda-empty = Bugun muddati keladigan vazifa yo'q.
agenda-more = …yana { $count } ta vazifa: /list
agenda-current = Ertalabki reja har kuni soat { $time } da keladi; vaqt mintaqasi: { $zone }. /agenda off uni o'chiradi.
agenda-off-state = Ertalabki reja o'chirilgan.
agenda-usage = Har kuni ertalab soat 8:00 da kun vazifalarini olish uchun /agenda 8:00 ni yuboring.
agenda-set = Har kuni soat { $time } da sizga kun vazifalarini yuboraman, vazifa bo'lmasa — qisqa xabar. Birinchisi: { $when }.
agenda-turned-off = Tayyor: ertalabki reja o'chirildi.
agenda-bad = Bu vaqtni tushunmadim. Kun vaqtini yoki off ni yuboring.
agenda-example = /agenda 8:00
agenda-needs-zone = Rejani ertalabingizda yuborishim uchun vaqt mintaqangizni bilishim kerak; keyin /agenda ni yana yuboring.
task-nag = Bajarilmaguncha: har bir eslatmadan keyin har { $every }da yana, ko'pi bilan { $max } marta.
nag-on = Vazifa bajarilmaguncha har { $every }da yana eslatib turaman, ko'pi bilan { $max } marta.
callback-nag = Eslatib turaman
err-nag-interval = Eslatmani eng tez-tez har { $min }da, eng siyrak har { $max }da takrorlay olaman.
nag-example = 1 soatdan keyin onamga qo'ng'iroq qilish bajarilmaguncha har 10 daqiqada
quote-hint = Bu haqida eslatishim uchun bu xabarga vaqt bilan javob yozing.
quote-example = 2 soatdan keyin
repeat-weekly-one = har { $code ->
    [mon] dushanba
    [tue] seshanba
    [wed] chorshanba
    [thu] payshanba
    [fri] juma
    [sat] shanba
   *[sun] yakshanba
}
repeat-day-in-list = { $code ->
    [mon] dushanba
    [tue] seshanba
    [wed] chorshanba
    [thu] payshanba
    [fri] juma
    [sat] shanba
   *[sun] yakshanba
}
repeat-and = va
repeat-weekly-many = har { $days }
repeat-every-weeks = har { $n } haftada { $days }
repeat-hourly = har soatda
repeat-every-hours = har { $n } soatda
repeat-every-days = har { $n } kunda
repeat-every-months = har { $n } oyda, { $day }-kuni
repeat-monthly-last = har oyning oxirgi kuni
repeat-every-months-last = har { $n } oyda, oyning oxirgi kuni
repeat-every-minutes = har { $n } daqiqada
repeat-weekday-of-month = { $week ->
    [first] birinchi
    [second] ikkinchi
    [third] uchinchi
    [fourth] to'rtinchi
   *[last] oxirgi
} { $code ->
    [mon] dushanbasi
    [tue] seshanbasi
    [wed] chorshanbasi
    [thu] payshanbasi
    [fri] jumasi
    [sat] shanbasi
   *[sun] yakshanbasi
}
repeat-monthly-weekday = har oyning { $day }
repeat-every-months-weekday = har { $n } oyda, oyning { $day }
repeat-month-name = { $code ->
    [jan] yanvar
    [feb] fevral
    [mar] mart
    [apr] aprel
    [may] may
    [jun] iyun
    [jul] iyul
    [aug] avgust
    [sep] sentabr
    [oct] oktabr
    [nov] noyabr
   *[dec] dekabr
}
repeat-yearly = har yili { $day }-{ $month }
repeat-every-years = har { $n } yilda, { $day }-{ $month }
# Zones and first contact, /settings' buttons, /export (issue 14).
cmd-export = Vazifalarni kalendar va jadval fayli qilib olish
cmd-pause = Takrorlanadigan vazifani to'xtatib turish: /pause 12
cmd-resume = To'xtatilgan takrorni davom ettirish: /resume 12
tz-share-location = Yoki joylashuvingizni yuboring, vaqt mintaqasini shu joyga qarab o'rnataman.
button-share-location = 📍 Joylashuvni yuborish
tz-current = Vaqt mintaqangiz: { $tz }. Mahalliy vaqt: { $now }.
tz-location-bad = Bu joy uchun vaqt mintaqasini topa olmadim.
first-task-hint = Endi birinchi vazifangizni vaqti bilan yozing, masalan: ertaga 18:00 da non olish
zone-tashkent = Toshkent
zone-samarkand = Samarqand
zone-moscow = Moskva
zone-almaty = Olmaota
zone-berlin = Berlin
zone-london = London
zone-new-york = Nyu-York
zone-utc = UTC
button-lead-none = Muddatida
settings-saved = Saqlandi ✅
export-empty = Eksport qilinadigan ochiq vazifalar yo'q.
export-calendar = Kalendar uchun { $count } ta ochiq vazifa: qo'shish uchun faylni oching.
export-capped = Bular { $count } ta vazifangizdan muddati eng yaqin { $max } tasi.
export-table = Shu vazifalar jadval ko'rinishida.
# What was assumed reading a time, and time words left in the text (issue 14).
assumed-hour = Soat { $typed } deganingizni { $chosen } deb tushundim. Agar { $other } demoqchi bo'lsangiz, «Vaqtni o'zgartirish» tugmasini bosib, { $other } deb yozing.
assumed-time-not-said = Aniq vaqt aytilmadi, shuning uchun soat { $chosen } deb oldim.
assumed-next-weekday = Bu haftadagi emas, keyingi haftadagi kun: { $date }.
assumed-next-week = Kuni aytilmagan keyingi hafta — uning dushanbasi: { $date }.
assumed-next-month = Kuni aytilmagan keyingi oy — uning 1-sanasi: { $date }.
assumed-week-end = Hafta oxiri — uning jumasi: { $date }.
assumed-coming-night = Buni eng yaqin tun deb tushundim: { $date }.
assumed-night-after = Bu aytilgan kundan keyingi tun: { $date }.
assumed-tomorrow-after-midnight = Yarim tun o'tdi, shuning uchun “ertaga” deganingizni { $date } deb tushundim.
assumed-day-after-tomorrow-after-midnight = Yarim tun o'tdi, shuning uchun “indinga” deganingizni { $date } deb tushundim.
assumed-tonight-after-midnight = Yarim tundan o'tdi, shuning uchun «bugun kechasi»ni shu tun deb tushundim: { $date }.
assumed-typo = “{ $typed }” so'zini “{ $read }” deb o'qidim.
assumed-weekday-of-date = Siz «{ $said }» deb yozdingiz, lekin sana { $date }: sanani qoldirdim.
assumed-clock-skipped = { $date } kuni { $said } bo'lmaydi: o'sha kuni soatlar oldinga suriladi. { $chosen } ni oldim.
assumed-minutes-unsaid = “{ $minutes }” ni hozirdan { $minutes } daqiqa keyin deb oldim.
assumed-in-a-day = “через день” ni { $date } deb oldim. Kun ora takrorlansin desangiz, «Vaqtni o'zgartirish» tugmasini bosib, yozing: har 2 kunda soat { $time } da
assumed-second-time = Xuddi shu matnli ikkinchi vazifa { $when } eslatadi.
assumed-other-zone = { $offset } bo'yicha { $theirs } — sizning vaqtingiz bilan { $yours }.
unplaced-repeat = “{ $words }” iborasini takrorga aylantira olmadim, shuning uchun vazifa takrorsiz saqlandi. Takrorlansin desangiz, «Vaqtni o'zgartirish» tugmasini bosib, takrorni yozing, masalan: har kuni 9:00
unplaced-kept = “{ $words }” vazifa matnida qoldi, vaqt sifatida olinmadi.
unplaced-repeat-loose = “{ $words }” iborasini takrorga aylantira olmadim.
unplaced-second-time = Vazifada bitta vaqt bo'ladi: birinchisini oldim, “{ $words }” olinmadi. O'sha vaqtda ham eslatishim uchun uni alohida vazifa qilib yuboring.
edit-repeat-unknown = “{ $words }” iborasini takrorga aylantira olmadim, shuning uchun vazifa avvalgidek qoldi. Vaqt, kun yoki takrorni yozing.
repeat-edit-example = har kuni 9:00
# /help on nagging, reminders about a message, guesses, /agenda, /export and a location (issue 14).
help-repeat-more = Yana: har seshanba va payshanba, har 2 kunda, har 3 soatda, oyning oxirgi kuni, har yili 14-fevralda.
help-nag = Bajarilmaguncha qayta-qayta eslatish (yoki eslatma ostidagi 🔁 «Eslatib turish» tugmasi):
help-quote = Istalgan xabarga vaqt bilan javob yozing, men u haqida eslataman:
help-assumed = Taxmin qilishimga to'g'ri kelsa (masalan, «soat 3» kunduzmi yoki tunmi, yoki so'z xato yozilgan bo'lsa), buni vazifa ostida aytaman: ↩️ «Qaytarish» yoki 🕒 «Vaqtni o'zgartirish» bilan tuzatish mumkin.
help-more-commands = /agenda 8:00 — har kuni ertalab kun vazifalari; /export — vazifalaringiz kalendar va jadval fayllari ko'rinishida; /calendar — kalendaringiz obuna bo'ladigan havola; vaqt mintaqasini o'rnatish uchun joylashuvingizni yuboring (📎 → Joylashuv).
# Uzatilgan xabar haqida eslatmalar (issue 14).
ask-quote-when = Bu xabarni qachon eslatay?
ask-quote-when-still = Buni alohida vazifa qilib saqladim. Uzatilgan xabarni esa qachon eslatay?
forward-needs-zone = Xabarni eslatishim uchun avval vaqt mintaqangizni bilishim kerak; keyin xabarni qaytadan uzating.
# Guruhdagi savollar va huquqlar (issue 25).
cancel-not-yours = Bu savol sizga berilmagan: uni faqat so'ralgan kishi bekor qila oladi.
permission-unchecked = Bu guruhda buni qilishingiz mumkinligini Telegramdan tekshira olmadim, shuning uchun hech narsa o'zgarmadi. Bir daqiqadan keyin qayta urinib ko'ring.
# Tugaydigan va «Bajarildi»dan hisoblanadigan takrorlar, takrorni to'xtatib turish, eskirmaydigan kartalar (issue 24).
repeat-from-done = { $rule }, «Bajarildi» bosilgan paytdan hisoblab
repeat-count = { $rule }, jami { $n } marta
repeat-until = { $rule }, { $year }-yil { $day }-{ $month }gacha
done-series-ended = Bajarildi: { $text }. Bu oxirgisi edi: takror tugadi.
repeat-paused = ⏸ To'xtatib turildi: { $text }. Davom ettirmaguningizcha eslatma bo'lmaydi (/resume va vazifa raqami yoki tugma).
repeat-already-paused = Bu takror allaqachon to'xtatib turilgan.
repeat-resumed = ▶️ Davom ettirildi: { $text }. Keyingi safar: { $when }
repeat-not-paused = Bu takror to'xtatilmagan.
repeat-ended-paused = { $text }: takror to'xtatib turilganida tugadi, boshqa eslatma bo'lmaydi.
repeat-not-repeating = Faqat takrorlanadigan vazifani to'xtatib turish mumkin; bu bir marta keladi.
button-resume = ▶️ Davom ettirish
callback-paused = To'xtatildi ⏸
callback-resumed = Davom ettirildi ▶️
id-example-pause = /pause 12
id-example-resume = /resume 12
# The chat reads what people mean (issue 24).
tz-task-kept = Vaqt mintaqangizni bilishim bilan «{ $text }» vazifasini saqlayman.
tz-task-waits-already = Vaqt mintaqasini «{ $waiting }» allaqachon kutmoqda, shuning uchun «{ $text }» saqlanmadi: mintaqa tanlangach, uni qayta yuboring.
task-saved-before-zone = ✅ Vazifa saqlandi: { $text }. Eslatmagacha: { $in }.
assumed-hour-choice = Soat { $typed } deganingizni { $chosen } deb tushundim. Agar { $other } demoqchi bo'lsangiz, pastdagi { $other } tugmasini bosing.
lang-written-offer = Kirill yozuvida yozyapsiz, shuning uchun kirill yozuvida javob beraman. Boshqa yozuv yoki til kerakmi? Tanlang:
help-forward = Istalgan xabarni menga uzating (forward) va qachonligini ayting — u haqida eslatib, xabarni ko'rsataman.
csv-id = raqam
csv-text = vazifa
csv-due-local = muddat (mahalliy vaqt)
csv-zone = vaqt mintaqasi
csv-due-utc = muddat (UTC)
csv-repeat = takrorlanish
csv-repeat-rule = takrorlanish qoidasi (RRULE)
csv-lead-minutes = oldindan eslatish (daqiqa)
# /export cheklovlari (issue 25).
export-wait = Fayllarni hozirgina so'radingiz, ular yo'lda. Yana { $seconds } soniyadan keyin so'rashingiz mumkin.
export-too-large = { $file } fayli { $size } KB bo'lardi, bu bot yubora oladigan { $max } KB dan ko'p. Ba'zi vazifalarni bajaring yoki o'chiring, keyin yana /export yuboring.
# /calendar: obuna bo'linadigan kalendar (issue 27).
cmd-calendar = Vazifalaringizga kalendar ilovasida obuna bo'lish
calendar-title = 📅 Vazifalaringiz kalendaringizda
calendar-subscribe = Apple Calendar, Outlook yoki Thunderbird: obuna bo'lish uchun bu havolani oching yoki nusxalang:
calendar-google = Google Calendar: Boshqa kalendarlar → URL orqali, va bu havolani joylang:
calendar-keep-secret = Kalendar ochiq vazifalaringizni o'zi kuzatib boradi (Google — bir necha soatda bir marta). Havolasi bor har kim vazifalaringizni ko'radi, shuning uchun uni hech kimga bermang: /calendar new yangi havola beradi, eskisi esa darhol ishlamay qoladi.
calendar-exists = Sizda kalendar havolasi allaqachon bor. Men uning faqat izini saqlayman, shuning uchun uni qayta ko'rsata olmayman: yangisini olish uchun «Yangi havola» tugmasini bosing (yoki /calendar new yuboring); eskisi darhol ishlamay qoladi.
calendar-usage = /calendar kalendaringiz havolasini beradi; /calendar new uni yangisiga almashtiradi.
calendar-off = Bu botda kalendar havolasi mavjud emas: uning operatori botning ochiq manzilini (PUBLIC_URL) sozlamagan.
button-calendar-new = 🔄 Yangi havola
callback-calendar-new = Yangi havola yuborildi
calendar-feed-name = Eslatmalar
