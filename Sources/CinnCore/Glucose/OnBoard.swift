import Foundation

/// How much of a rapid-acting insulin dose is still to act, by the exponential model Loop and oref0 use (Dragan
/// Maksimovic's curve, LoopKit `ExponentialInsulinModel`; docs/glucose.md): activity rises from the dose (after
/// `delay`), peaks at `peak` after it and ends at `duration`, its integral the whole dose.
public struct ExponentialInsulinModel: Sendable, Hashable {
    /// How long the insulin acts, after the delay, in minutes.
    public let durationMinutes: Double
    /// When its activity peaks, after the delay, in minutes.
    public let peakMinutes: Double
    /// How long after the dose its action begins, in minutes (LoopKit: 10; oref0: 0).
    public let delayMinutes: Double

    // The curve's constants: the decay's time constant, the rise-time factor and the scale that makes the
    // activity's integral 1.
    private let tau: Double
    private let a: Double
    private let scale: Double

    /// Rapid-acting insulin for adults (Humalog, Novolog): 6 h, peak at 75 min, LoopKit's preset.
    public static let rapidActingAdult = ExponentialInsulinModel(durationMinutes: 360, peakMinutes: 75)!
    /// Rapid-acting insulin for children: peak at 65 min.
    public static let rapidActingChild = ExponentialInsulinModel(durationMinutes: 360, peakMinutes: 65)!
    /// Ultra-rapid insulin (Fiasp, Lyumjev): peak at 55 min.
    public static let ultraRapid = ExponentialInsulinModel(durationMinutes: 360, peakMinutes: 55)!

    /// The durations the curve is made for: 2 to 10 hours (the peak must come before half of it, `isValid`).
    public static let durationRange = 120.0...600.0

    /// The curve for a duration and peak that make one (`isValid`) and a delay from 0 to 60 minutes; nil otherwise.
    public init?(durationMinutes: Double, peakMinutes: Double, delayMinutes: Double = 10) {
        guard Self.isValid(durationMinutes: durationMinutes, peakMinutes: peakMinutes), (0...60).contains(delayMinutes) else {
            return nil
        }
        self.durationMinutes = durationMinutes
        self.peakMinutes = peakMinutes
        self.delayMinutes = delayMinutes
        tau = peakMinutes * (1 - peakMinutes / durationMinutes) / (1 - 2 * peakMinutes / durationMinutes)
        a = 2 * tau / durationMinutes
        scale = 1 / (1 - a + (1 + a) * exp(-durationMinutes / tau))
    }

    /// Whether a duration and peak make a curve: both finite, the duration within `durationRange`, the peak at least
    /// 10 minutes and under 45 % of the duration.
    public static func isValid(durationMinutes: Double, peakMinutes: Double) -> Bool {
        durationMinutes.isFinite && peakMinutes.isFinite && durationRange.contains(durationMinutes) && peakMinutes >= 10
            && peakMinutes < 0.45 * durationMinutes
    }

    /// The curve for a person's peak and duration, as typed: a field that makes none is named in the error.
    public static func validated(peakMinutes: Double, durationMinutes: Double) throws(CinnError) -> ExponentialInsulinModel {
        guard durationMinutes.isFinite, durationRange.contains(durationMinutes) else {
            throw .invalid("insulin_duration_minutes", "insulin acts for 120 to 600 minutes")
        }
        guard let model = ExponentialInsulinModel(durationMinutes: durationMinutes, peakMinutes: peakMinutes) else {
            let most = (durationMinutes * 0.45).rounded(.up) - 1
            throw .invalid(
                "insulin_peak_minutes",
                "the peak comes 10 to \(most.wholeText) minutes after a dose that acts \(durationMinutes.wholeText) minutes")
        }
        return model
    }

    /// The share of a dose still to act `minutes` after it (insulin on board): 1 until the delay has passed, 0 from
    /// the end of its action.
    public func fractionRemaining(afterMinutes minutes: Double) -> Double {
        let t = minutes - delayMinutes
        guard t > 0 else { return 1 }
        guard t < durationMinutes else { return 0 }
        return 1 - scale * (1 - a) * ((t * t / (tau * durationMinutes * (1 - a)) - t / tau - 1) * exp(-t / tau) + 1)
    }

    /// The share of a dose acting per minute, `minutes` after it: what `fractionRemaining` loses in a minute.
    public func activityPerMinute(afterMinutes minutes: Double) -> Double {
        let t = minutes - delayMinutes
        guard t > 0, t < durationMinutes else { return 0 }
        return scale / (tau * tau) * t * (1 - t / durationMinutes) * exp(-t / tau)
    }

    /// Units of the rapid-acting `doses` still to act at `instant`: basal (long-acting) doses are not counted, nor
    /// doses after `instant`.
    public func unitsOnBoard(_ doses: [InsulinDose], at instant: Date) -> Double {
        doses.reduce(0) { total, dose in
            guard dose.kind == .bolus, dose.takenAt <= instant, dose.units.isFinite, dose.units > 0 else { return total }
            return total + dose.units * fractionRemaining(afterMinutes: instant.timeIntervalSince(dose.takenAt) / 60)
        }
    }
}

/// Carbohydrate eaten: when, and how many grams.
public struct CarbEntry: Sendable, Hashable {
    public let eatenAt: Date
    public let grams: Double

    public init(eatenAt: Date, grams: Double) {
        self.eatenAt = eatenAt
        self.grams = grams
    }
}

/// How carbohydrate is absorbed over time, as LoopKit's `CarbMath` models it: a share absorbed for a share of the
/// absorption time, after a delay (docs/glucose.md).
public enum CarbAbsorption: String, Sendable, CaseIterable {
    /// A constant rate.
    case linear
    /// Scheiner's curve (*Think Like a Pancreas*): the rate rises, then falls, as a parabola.
    case parabolic
    /// Loop's default ("nonlinear"): the rate ramps up over the first 15 %, stays flat to half-way, then falls to 0.
    case piecewiseLinear

    /// Minutes after eating before absorption begins (LoopKit `defaultEffectDelay`).
    public static let delayMinutes = 10.0
    /// A meal's absorption time when it says none (LoopKit's medium, 3 h).
    public static let defaultAbsorptionMinutes = 180.0

    /// The share of a meal's carbohydrate absorbed at `fraction` of its absorption time.
    public func absorbed(atFractionOfTime fraction: Double) -> Double {
        guard fraction > 0 else { return 0 }
        guard fraction < 1 else { return 1 }
        switch self {
        case .linear:
            return fraction
        case .parabolic:
            return fraction <= 0.5 ? 2 * fraction * fraction : -1 + 2 * fraction * (2 - fraction)
        case .piecewiseLinear:
            let rampEnd = 0.15, plateauEnd = 0.5, scale = 2 / (1 + plateauEnd - rampEnd)
            if fraction < rampEnd { return 0.5 * scale * fraction * fraction / rampEnd }
            if fraction < plateauEnd { return scale * (fraction - 0.5 * rampEnd) }
            let after = fraction - plateauEnd
            return scale * (plateauEnd - 0.5 * rampEnd + after * (1 - 0.5 * after / (1 - plateauEnd)))
        }
    }

    /// Grams of `entries` not yet absorbed at `instant` (carbs on board), each absorbed over `absorptionMinutes`
    /// after the delay; entries after `instant` are not counted.
    public func gramsOnBoard(_ entries: [CarbEntry], at instant: Date, absorptionMinutes: Double = defaultAbsorptionMinutes) -> Double {
        entries.reduce(0) { total, entry in
            guard entry.eatenAt <= instant, entry.grams.isFinite, entry.grams > 0 else { return total }
            let minutes = instant.timeIntervalSince(entry.eatenAt) / 60 - Self.delayMinutes
            return total + entry.grams * (1 - absorbed(atFractionOfTime: minutes / absorptionMinutes))
        }
    }
}
