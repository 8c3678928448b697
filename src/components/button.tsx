import type { ButtonHTMLAttributes } from 'react';
import styles from './button.module.css';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
}

export function Button({ variant = 'primary', className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={`${styles.button} ${styles[variant]} ${className ?? ''}`} {...props} />;
}

/** The same look for a link that acts as a button (wouter's <Link>, or a plain <a>). */
export const buttonClass = (variant: ButtonProps['variant'] = 'primary') => `${styles.button} ${styles[variant]}`;
