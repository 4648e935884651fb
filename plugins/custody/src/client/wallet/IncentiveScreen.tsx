export { OnboardingIncentiveScreen as default } from "./OnboardingScreens.tsx"
